import { builderLimits } from '@flotilla/shared/releases/builder-limits';
import { createGunzip } from 'node:zlib';
import { badRequest } from '../../infra/errors/api-error.js';

const gzipMagic = Buffer.from([0x1f, 0x8b]);
const zstdMagic = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

export const notATarball = 'The project is not a tar archive (.tar or .tar.gz)';

export const unpackedTooLarge = (maxBytes: number = builderLimits.unpackedBytes): string =>
  `The project unpacks to more than ${maxBytes / 1024 / 1024} MiB`;

const startsWith = (data: Buffer, magic: Buffer): boolean =>
  data.length >= magic.length && data.subarray(0, magic.length).equals(magic);

// Inflated by zlib's streaming API (off the event loop, a chunk at a time, with backpressure), so
// a gzip bomb costs one chunk of memory and stops at the unpacked limit instead of being inflated
// in full.
async function* gunzipped(archive: Buffer, maxBytes: number): AsyncGenerator<Buffer> {
  const gunzip = createGunzip({ chunkSize: 64 * 1024 });
  gunzip.end(archive);
  let total = 0;
  try {
    for await (const chunk of gunzip) {
      if (!Buffer.isBuffer(chunk)) continue;
      total += chunk.length;
      if (total > maxBytes) throw badRequest(unpackedTooLarge(maxBytes));
      yield chunk;
    }
  } finally {
    gunzip.destroy();
  }
}

// The plain tar bytes of a project archive (.tar, or .tar.gz inflated as it is read), refused
// past `maxBytes` unpacked. The tar parser decompresses gzip and zstd by itself, in one go on the
// event loop: what reaches it must be plain tar, so a compressed archive inside the gzip (or a
// zstd one) is refused rather than handed to it.
export async function* tarBytes(
  archive: Buffer,
  maxBytes: number = builderLimits.unpackedBytes,
): AsyncGenerator<Buffer> {
  const source = startsWith(archive, gzipMagic) ? gunzipped(archive, maxBytes) : [archive];
  let head: Buffer | undefined = Buffer.alloc(0);
  for await (const chunk of source) {
    if (head === undefined) {
      yield chunk;
      continue;
    }
    head = Buffer.concat([head, chunk]);
    if (head.length < zstdMagic.length) continue;
    if (startsWith(head, gzipMagic) || startsWith(head, zstdMagic)) throw badRequest(notATarball);
    yield head;
    head = undefined;
  }
  if (head !== undefined && head.length > 0) yield head;
}
