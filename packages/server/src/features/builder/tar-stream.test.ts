import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipBomb } from '../../test-support/gzip-bomb.js';
import { tarBytes } from './tar-stream.js';

const mebibyte = 1024 * 1024;

const read = async (archive: Buffer, maxBytes?: number): Promise<number> => {
  let total = 0;
  for await (const chunk of tarBytes(archive, maxBytes)) total += chunk.length;
  return total;
};

describe('the tar bytes of a project archive', () => {
  it('hands a plain tar over as it is, and a gzip inflated', async () => {
    const tar = Buffer.alloc(4096, 1);
    expect(await read(tar)).toBe(4096);
    expect(await read(gzipSync(tar))).toBe(4096);
  });

  it('stops inflating a gzip bomb at the limit, having inflated no more than a chunk past it', async () => {
    let inflated = 0;
    const reading = (async () => {
      for await (const chunk of tarBytes(gzipBomb(1024), 8 * mebibyte)) inflated += chunk.length;
    })();
    await expect(reading).rejects.toThrow(/unpacks to more than 8 MiB/);
    expect(inflated).toBeLessThanOrEqual(8 * mebibyte);
  });

  it.each([
    ['a gzip inside the gzip', gzipSync(gzipSync(Buffer.alloc(4096)))],
    ['a zstd archive', Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), Buffer.alloc(512)])],
  ])('refuses %s rather than let the tar parser inflate it in one go', async (_what, archive) => {
    await expect(read(archive)).rejects.toThrow(/not a tar archive/);
  });
});
