import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { badRequest, notFound } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import type { WriteContext } from '../../infra/odata/hooks.js';
import { assetDirectory, assetPath, type StoredAsset } from './asset-files.js';

// Files over 5 MiB: balena-sdk's release.asset.upload asks beginUpload for part addresses, PUTs
// each part there (without its token: the address is the capability, as S3's pre-signed URLs)
// and calls commitUpload with the parts' ETags.
export const chunkedAssetMaxBytes = 100 * 1024 * 1024;
export const maxChunkBytes = 16 * 1024 * 1024;
const maxParts = 1000;

const beginBody = z.object({
  asset: z.object({
    filename: z.string().min(1).max(255),
    content_type: z.string().max(255).default('application/octet-stream'),
    size: z.number().int().min(1).max(chunkedAssetMaxBytes),
    chunk_size: z.number().int().min(1024).max(maxChunkBytes),
  }),
});

const commitBody = z.object({
  uuid: z.string().regex(/^[0-9a-f]{32}$/),
  providerCommitData: z.object({
    Parts: z
      .array(z.object({ PartNumber: z.number().int().min(1), ETag: z.string().max(100) }))
      .max(maxParts),
  }),
});

const uploadSchema = z.object({
  releaseAsset: z.number().int(),
  filename: z.string(),
  content_type: z.string(),
  size: z.number().int(),
  chunk_size: z.number().int(),
  parts: z.number().int(),
});
type Upload = z.output<typeof uploadSchema>;

const uploadDirectory = (dataDir: string, uuid: string): string =>
  path.join(assetDirectory(dataDir), 'uploads', uuid);

const partPath = (dataDir: string, uuid: string, part: number): string =>
  path.join(uploadDirectory(dataDir, uuid), `part-${part}`);

const readUpload = async (dataDir: string, uuid: string): Promise<Upload> => {
  try {
    const text = await readFile(path.join(uploadDirectory(dataDir, uuid), 'upload.json'), 'utf8');
    return uploadSchema.parse(JSON.parse(text));
  } catch {
    throw notFound('No such upload');
  }
};

// Bytes part `part` of the upload must have: chunk_size, the last one the remainder.
export const expectedPartSize = (upload: Upload, part: number): number =>
  part < upload.parts ? upload.chunk_size : upload.size - upload.chunk_size * (upload.parts - 1);

export const beginUpload = async (
  dataDir: string,
  origin: string,
  id: number,
  body: unknown,
): Promise<unknown> => {
  const { asset } = parseBody(beginBody, body);
  const parts = Math.ceil(asset.size / asset.chunk_size);
  if (parts > maxParts) throw badRequest(`An upload has at most ${maxParts} parts`);
  const uuid = randomBytes(16).toString('hex');
  const upload: Upload = { releaseAsset: id, ...asset, parts };
  await mkdir(uploadDirectory(dataDir, uuid), { recursive: true });
  await writeFile(path.join(uploadDirectory(dataDir, uuid), 'upload.json'), JSON.stringify(upload));
  return {
    asset: {
      uuid,
      uploadParts: Array.from({ length: parts }, (_, index) => ({
        url: `${origin}/release-asset/v1/uploads/${uuid}/${index + 1}`,
        chunkSize: expectedPartSize(upload, index + 1),
        partNumber: index + 1,
      })),
    },
  };
};

// Stores one part (PUT to its address) and returns its ETag (the MD5 of its bytes, as S3's).
export const storePart = async (
  dataDir: string,
  uuid: string,
  part: number,
  bytes: Buffer,
): Promise<string> => {
  const upload = await readUpload(dataDir, uuid);
  if (part < 1 || part > upload.parts)
    throw badRequest(`This upload has parts 1 to ${upload.parts}`);
  const expected = expectedPartSize(upload, part);
  if (bytes.length !== expected) {
    throw badRequest(`Part ${part} must be ${expected} bytes, got ${bytes.length}`);
  }
  await writeFile(partPath(dataDir, uuid, part), bytes);
  return createHash('md5').update(bytes).digest('hex');
};

const etagOf = async (file: string): Promise<string | undefined> =>
  readFile(file).then(
    (bytes) => createHash('md5').update(bytes).digest('hex'),
    () => undefined,
  );

// Joins the parts into the asset's file and sets the row's `asset`.
export const commitUpload = async (
  dataDir: string,
  origin: string,
  ctx: WriteContext,
  id: number,
  body: unknown,
): Promise<unknown> => {
  const { uuid, providerCommitData } = parseBody(commitBody, body);
  const upload = await readUpload(dataDir, uuid);
  if (upload.releaseAsset !== id) throw notFound('No such upload');
  const given = [...providerCommitData.Parts].sort((a, b) => a.PartNumber - b.PartNumber);
  if (given.length !== upload.parts || given.some((part, index) => part.PartNumber !== index + 1)) {
    throw badRequest(`The upload has ${upload.parts} parts; give each once`);
  }
  for (const part of given) {
    const etag = await etagOf(partPath(dataDir, uuid, part.PartNumber));
    if (etag === undefined) throw badRequest(`Part ${part.PartNumber} was not uploaded`);
    if (etag !== part.ETag.replace(/^"+|"+$/g, '')) {
      throw badRequest(`Part ${part.PartNumber} does not match its ETag`);
    }
  }
  const target = assetPath(dataDir, uuid);
  const out = createWriteStream(`${target}.partial`);
  await pipeline(async function* () {
    for (const part of given) yield await readFile(partPath(dataDir, uuid, part.PartNumber));
  }, out);
  if ((await stat(`${target}.partial`)).size !== upload.size) {
    throw badRequest('The parts do not add up to the announced size');
  }
  await rename(`${target}.partial`, target);
  await rm(uploadDirectory(dataDir, uuid), { recursive: true, force: true });
  const asset: StoredAsset = {
    filename: upload.filename,
    content_type: upload.content_type,
    size: upload.size,
    href: `${origin}/release-asset/v1/${uuid}/${encodeURIComponent(upload.filename)}`,
    uuid,
  };
  await ctx.tx.query('UPDATE "release_asset" SET "asset" = $2::jsonb WHERE "id" = $1', [
    id,
    JSON.stringify(asset),
  ]);
  return { asset };
};
