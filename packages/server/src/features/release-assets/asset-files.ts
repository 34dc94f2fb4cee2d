import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

// balena-sdk's release.asset.upload sends files up to 5 MiB in one multipart POST/PATCH (larger
// ones use beginUpload/commitUpload, which this server does not offer).
export const releaseAssetMaxBytes = 5 * 1024 * 1024;

// A file that arrived in a multipart body, not yet stored. Only the multipart parser makes these,
// so a JSON body can never pass one off as an upload.
export class UploadedAsset {
  constructor(
    readonly filename: string,
    readonly contentType: string,
    readonly bytes: Buffer,
    readonly origin: string,
  ) {}
}

export type StoredAsset = {
  filename: string;
  content_type: string;
  size: number;
  href: string;
  uuid: string;
};

export const assetDirectory = (dataDir: string): string => path.join(dataDir, 'release-assets');

export const assetPath = (dataDir: string, uuid: string): string =>
  path.join(assetDirectory(dataDir), uuid);

// Writes the bytes under the data directory (atomically: a temporary name, then rename) and
// returns the row's `asset` value. The href carries the unguessable uuid (like a pre-signed
// URL: balena-sdk downloads it without its token) and is shown only to who may read the release.
export const storeAsset = async (dataDir: string, upload: UploadedAsset): Promise<StoredAsset> => {
  const uuid = randomBytes(16).toString('hex');
  await mkdir(assetDirectory(dataDir), { recursive: true });
  const target = assetPath(dataDir, uuid);
  await writeFile(`${target}.partial`, upload.bytes);
  await rename(`${target}.partial`, target);
  return {
    filename: upload.filename,
    content_type: upload.contentType,
    size: upload.bytes.length,
    href: `${upload.origin}/release-asset/v1/${uuid}/${encodeURIComponent(upload.filename)}`,
    uuid,
  };
};

export const removeAssetFile = async (dataDir: string, uuid: string): Promise<void> => {
  if (!/^[0-9a-f]{32}$/.test(uuid)) return;
  await rm(assetPath(dataDir, uuid), { force: true });
};
