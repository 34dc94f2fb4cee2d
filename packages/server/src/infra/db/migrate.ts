import type { Database, Queryable } from './database.js';
import { type MigrationFile, migrationsDir, readMigrationFiles } from './migration-files.js';

// Any fixed number shared by every Flotilla process: serialises concurrent migrators.
const migrationLockKey = 7_461_002;

// fresh: the database had no migration before (a new database).
export type MigrationResult = { applied: string[]; fresh: boolean };

export type MigrateOptions = {
  // Applies the migrations up to this file name only (a restore rebuilds the schema a backup was
  // taken with before loading its rows; the upgrade test builds an older release's schema).
  upTo?: string;
};

type AppliedRow = { name: string; checksum: string | null };

// Databases migrated before checksums were kept have no column for them; the first run of this
// code adds it and records the checksums of the files as they are now.
const ensureChecksums = async (tx: Queryable, files: MigrationFile[]): Promise<AppliedRow[]> => {
  await tx.query(
    `CREATE TABLE IF NOT EXISTS flotilla_migration (
       name text PRIMARY KEY,
       applied_at timestamptz NOT NULL DEFAULT now()
     )`,
  );
  await tx.query('ALTER TABLE flotilla_migration ADD COLUMN IF NOT EXISTS checksum text');
  const known = new Map(files.map((file) => [file.name, file.checksum]));
  const { rows } = await tx.query<AppliedRow>(
    'SELECT name, checksum FROM flotilla_migration ORDER BY name',
  );
  const backfilled: AppliedRow[] = [];
  for (const row of rows) {
    const checksum = known.get(row.name);
    if (row.checksum === null && checksum !== undefined) {
      await tx.query('UPDATE flotilla_migration SET checksum = $2 WHERE name = $1', [
        row.name,
        checksum,
      ]);
      backfilled.push({ name: row.name, checksum });
    } else backfilled.push(row);
  }
  return backfilled;
};

// A database that applied migrations this code does not have, or whose applied migrations were
// edited since, has a schema this code was not written for: refuse rather than guess.
const assertApplicable = (applied: AppliedRow[], files: MigrationFile[]): void => {
  const known = new Map(files.map((file) => [file.name, file.checksum]));
  const unknown = applied.filter((row) => !known.has(row.name)).map((row) => row.name);
  if (unknown.length > 0) {
    throw new Error(
      `The database has migrations this Flotilla does not know (${unknown.join(', ')}): a newer ` +
        'version upgraded it. Run that version (or newer), or restore a backup taken before the ' +
        'upgrade into a new data directory.',
    );
  }
  const changed = applied
    .filter((row) => row.checksum !== null && row.checksum !== known.get(row.name))
    .map((row) => row.name);
  if (changed.length > 0) {
    throw new Error(
      `Migrations changed after they were applied to this database: ${changed.join(', ')}. A ` +
        'migration file must never change once released; restore the original file (a new ' +
        'change goes into a new migration).',
    );
  }
};

// Applies the migration files not yet recorded, in name order, within the caller's transaction
// (a restore builds the schema and loads its rows in one), under an advisory lock.
export const migrateWithin = async (
  tx: Queryable,
  files: readonly MigrationFile[],
  options: MigrateOptions = {},
): Promise<MigrationResult> => {
  const { upTo } = options;
  await tx.query('SELECT pg_advisory_xact_lock($1)', [migrationLockKey]);
  const appliedRows = await ensureChecksums(tx, [...files]);
  assertApplicable(appliedRows, [...files]);
  const done = new Set(appliedRows.map((row) => row.name));
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file.name) || (upTo !== undefined && file.name > upTo)) continue;
    await tx.query(file.sql);
    await tx.query('INSERT INTO flotilla_migration (name, checksum) VALUES ($1, $2)', [
      file.name,
      file.checksum,
    ]);
    applied.push(file.name);
  }
  return { applied, fresh: appliedRows.length === 0 };
};

// Applies every migration file not yet recorded, in name order, all in one transaction under an
// advisory lock, so two processes starting together never apply one twice. Refuses to start on a
// database that is newer than the code or whose applied migrations changed.
export const migrate = async (
  db: Database,
  dir = migrationsDir,
  options: MigrateOptions = {},
): Promise<MigrationResult> => {
  const files = await readMigrationFiles(dir);
  return db.transaction((tx) => migrateWithin(tx, files, options));
};
