import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Database, Queryable } from '../db/database.js';

// Whether this process's database and data directory belong to each other. Only then may the
// sweeps delete files the database does not name.
export type InstallationBinding =
  { kind: 'bound'; id: string } | { kind: 'mismatch'; reason: string };

export const installationFileName = 'installation';

const installationFile = z.object({ id: z.string().min(1), starts: z.number().int().min(0) });
type InstallationFile = z.infer<typeof installationFile>;

type Row = { id: string; starts: string };

const readInstallationFile = async (
  dataDir: string,
): Promise<InstallationFile | undefined | Error> => {
  const file = path.join(dataDir, installationFileName);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return installationFile.parse(JSON.parse(text));
  } catch {
    return new Error(`${file} is not an installation file Flotilla wrote`);
  }
};

// Replaced whole (rename) so that no process ever reads half a file.
export const writeInstallationFile = async (
  dataDir: string,
  content: InstallationFile,
): Promise<void> => {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, installationFileName);
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, `${JSON.stringify(content)}\n`, { mode: 0o600 });
  await rename(temporary, file);
};

// Gives the database a new installation id (a restored copy is an installation of its own, so
// that pointing it at the original's data directory, or the reverse, is a mismatch).
export const rekeyInstallation = async (db: Queryable, dataDir: string): Promise<string> => {
  const id = randomBytes(16).toString('hex');
  await db.query('DELETE FROM "flotilla_installation"');
  await db.query('INSERT INTO "flotilla_installation" ("id", "starts") VALUES ($1, 1)', [id]);
  await writeInstallationFile(dataDir, { id, starts: 1 });
  return id;
};

const remedy =
  'The release-asset and git-repository sweeps are off, so no file is deleted. Check ' +
  'DATABASE_URL and FLOTILLA_DATA_DIR. If this database really is the one for this data ' +
  `directory, delete <data dir>/${installationFileName} and restart: the two are bound again.`;

// Whether a data directory already holds what a database would name: git repositories or
// release assets (at the top level of those directories; infrastructure knows their names only).
const holdsInstallationFiles = async (dataDir: string): Promise<boolean> => {
  for (const dir of ['git', 'release-assets']) {
    const names = await readdir(path.join(dataDir, dir)).catch(() => []);
    if (names.length > 0) return true;
  }
  return false;
};

// Called at every start, after the migrations. The first start (or the first after upgrading to
// a version that binds them) creates the id in both; a data directory without the file adopts the
// database's id. Each start counts itself in both, the database first: a data directory that has
// seen more starts than its database was paired with an older copy of it (a restored dump).
export const bindInstallation = async (
  db: Database,
  dataDir: string,
  options: { databaseIsNew?: boolean } = {},
): Promise<InstallationBinding> => {
  const file = await readInstallationFile(dataDir);
  // A data directory from before the binding, with repositories or assets, beside a database
  // created by this very start: a wrong DATABASE_URL (its demo fleets would not save the files).
  // Both get different ids, so that the mismatch lasts until the operator decides.
  if (file === undefined && options.databaseIsNew && (await holdsInstallationFiles(dataDir))) {
    await db.query(
      `INSERT INTO "flotilla_installation" ("id", "starts") VALUES ($1, 1) ON CONFLICT DO NOTHING`,
      [randomBytes(16).toString('hex')],
    );
    await writeInstallationFile(dataDir, {
      id: `files-${randomBytes(8).toString('hex')}`,
      starts: 0,
    });
    return {
      kind: 'mismatch',
      reason:
        `The database is new, but the data directory ${dataDir} already holds git ` +
        `repositories or release assets: they belong to another database. ${remedy}`,
    };
  }
  if (file instanceof Error) return { kind: 'mismatch', reason: `${file.message}. ${remedy}` };
  const outcome = await db.transaction(
    async (tx): Promise<InstallationBinding | InstallationFile> => {
      const { rows } = await tx.query<Row>(
        'SELECT "id", "starts" FROM "flotilla_installation" FOR UPDATE',
      );
      const row = rows[0];
      if (row === undefined && file !== undefined) {
        return {
          kind: 'mismatch',
          reason:
            `The data directory ${dataDir} belongs to installation ${file.id}, but the database ` +
            'has no installation id: it is another database, or a dump taken before Flotilla ' +
            `bound the two. ${remedy}`,
        };
      }
      if (row !== undefined && file !== undefined) {
        if (row.id !== file.id) {
          return {
            kind: 'mismatch',
            reason:
              `The data directory ${dataDir} belongs to installation ${file.id}, the database to ` +
              `installation ${row.id}: they are not each other's. ${remedy}`,
          };
        }
        if (file.starts > Number(row.starts)) {
          return {
            kind: 'mismatch',
            reason:
              `The database is older than the data directory ${dataDir} (${row.starts} starts ` +
              `recorded against ${file.starts}): an older copy of the database was put back ` +
              `under newer files. Restore database and files together (npm run restore). ${remedy}`,
          };
        }
      }
      // Two processes starting together: the second waits for the first's row, then counts on it.
      const counted = await tx.query<Row>(
        `INSERT INTO "flotilla_installation" ("id", "starts") VALUES ($1, 1)
       ON CONFLICT ("singleton") DO UPDATE SET "starts" = "flotilla_installation"."starts" + 1
       RETURNING "id", "starts"`,
        [randomBytes(16).toString('hex')],
      );
      const bound = counted.rows[0];
      if (!bound) throw new Error('flotilla_installation returned no row');
      return { id: bound.id, starts: Number(bound.starts) };
    },
  );
  if ('kind' in outcome) return outcome;
  await writeInstallationFile(dataDir, outcome);
  return { kind: 'bound', id: outcome.id };
};
