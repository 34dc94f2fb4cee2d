import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

// A backup is a directory: this manifest, the database's rows (database/<table>.ndjson.gz, one
// row a line as JSON) and the data directory's files (files/).
export const manifestFileName = 'flotilla-backup.json';
export const tablesDirName = 'database';
export const filesDirName = 'files';

const manifest = z.object({
  format: z.literal(1),
  createdAt: z.string(),
  // The schema the rows belong to: a restore rebuilds exactly it before loading them.
  migrations: z.array(z.object({ name: z.string(), checksum: z.string() })),
  tables: z.array(z.object({ name: z.string(), rows: z.number().int().min(0) })),
  sequences: z.array(z.object({ name: z.string(), lastValue: z.string().nullable() })),
  postgresVersion: z.string(),
});

export type BackupManifest = z.infer<typeof manifest>;

export const writeManifest = (dir: string, content: BackupManifest): Promise<void> =>
  writeFile(path.join(dir, manifestFileName), `${JSON.stringify(content, null, 2)}\n`, {
    mode: 0o600,
  });

export const readManifest = async (dir: string): Promise<BackupManifest> => {
  const file = path.join(dir, manifestFileName);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`${dir} is not a Flotilla backup (no ${manifestFileName})`, { cause: error });
  }
  const parsed = manifest.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${file} is not a backup manifest this Flotilla reads`);
  return parsed.data;
};

export const tableFile = (dir: string, table: string): string =>
  path.join(dir, tablesDirName, `${table}.ndjson.gz`);
