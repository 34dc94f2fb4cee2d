import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Queryable } from '../../infra/db/database.js';
import { assetDirectory } from './asset-files.js';

// A file no row names is kept this long first: it may belong to a write still in its transaction.
export const orphanGraceMs = 60 * 60 * 1000;
// An upload not committed within a day is abandoned.
export const uploadExpiryMs = 24 * 60 * 60 * 1000;
export const sweepIntervalMs = 60 * 60 * 1000;

const olderThan = async (file: string, cutoff: number): Promise<boolean> =>
  stat(file).then(
    (info) => info.mtimeMs < cutoff,
    () => false,
  );

// Removes the files of removed or overwritten assets, of writes that rolled back, and abandoned
// chunked uploads. Returns what it removed (names under release-assets/).
export const sweepAssetFiles = async (
  db: Queryable,
  dataDir: string,
  now: Date,
): Promise<string[]> => {
  const directory = assetDirectory(dataDir);
  const names = await readdir(directory).catch(() => []);
  const files = names.filter((name) => /^[0-9a-f]{32}(\.partial)?$/.test(name));
  const uuids = files.map((name) => name.slice(0, 32));
  const { rows } =
    uuids.length === 0
      ? { rows: [] }
      : await db.query<{ uuid: string }>(
          `SELECT "asset" ->> 'uuid' AS "uuid" FROM "release_asset" WHERE "asset" ->> 'uuid' = ANY($1::text[])`,
          [uuids],
        );
  const referenced = new Set(rows.map((row) => row.uuid));
  const removed: string[] = [];
  for (const name of files) {
    if (
      referenced.has(name) ||
      !(await olderThan(path.join(directory, name), now.getTime() - orphanGraceMs))
    ) {
      continue;
    }
    await rm(path.join(directory, name), { force: true });
    removed.push(name);
  }
  const uploads = await readdir(path.join(directory, 'uploads')).catch(() => []);
  for (const name of uploads) {
    const upload = path.join(directory, 'uploads', name);
    if (!(await olderThan(upload, now.getTime() - uploadExpiryMs))) continue;
    await rm(upload, { recursive: true, force: true });
    removed.push(`uploads/${name}`);
  }
  return removed;
};
