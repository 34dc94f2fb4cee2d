import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { Database, Queryable } from '../db/database.js';
import { migrateWithin } from '../db/migrate.js';
import { type MigrationFile, readMigrationFiles } from '../db/migration-files.js';
import { type BackupManifest, tableFile } from './backup-manifest.js';
import { backedUpTables, quoted, writableColumns } from './database-tables.js';

const batchSize = 500;

const assertEmpty = async (db: Database): Promise<void> => {
  const { rows } = await db.query<{ tables: string }>(
    `SELECT count(*)::text AS "tables" FROM pg_class c JOIN pg_namespace n ON n."oid" = c."relnamespace"
      WHERE n."nspname" = 'public' AND c."relkind" IN ('r', 'p', 'v')`,
  );
  if (rows[0]?.tables !== '0') {
    throw new Error(
      'The database to restore into is not empty: restore into a new data directory (embedded ' +
        'PostgreSQL) or a new, empty database (DATABASE_URL).',
    );
  }
};

// The backup's schema must be one this code can build: every migration it applied is one of
// ours, unchanged. A backup from a newer Flotilla is restored by that version.
const assertBuildable = (manifest: BackupManifest, files: readonly MigrationFile[]): string => {
  const known = new Map(files.map((file) => [file.name, file.checksum]));
  const foreign = manifest.migrations.filter((entry) => known.get(entry.name) !== entry.checksum);
  if (foreign.length > 0) {
    throw new Error(
      `The backup's database schema has migrations this Flotilla does not have as they were ` +
        `(${foreign.map((entry) => entry.name).join(', ')}): restore it with the version that ` +
        'made it (or a newer one).',
    );
  }
  const last = manifest.migrations.at(-1)?.name;
  if (last === undefined) throw new Error('The backup has no database schema');
  return last;
};

const loadTable = async (tx: Queryable, dir: string, table: string): Promise<number> => {
  const columns = (await writableColumns(tx, table)).map(quoted).join(', ');
  const insert = `INSERT INTO ${quoted(table)} (${columns}) OVERRIDING SYSTEM VALUE
    SELECT ${columns} FROM jsonb_populate_recordset(NULL::${quoted(table)}, $1::jsonb)`;
  let batch: string[] = [];
  let loaded = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    await tx.query(insert, [`[${batch.join(',')}]`]);
    loaded += batch.length;
    batch = [];
  };
  const lines = createInterface({
    input: createReadStream(tableFile(dir, table)).pipe(createGunzip()),
    crlfDelay: Infinity,
  });
  for await (const line of lines) {
    if (line === '') continue;
    batch.push(line);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return loaded;
};

// Rebuilds the backup's schema (its migrations), loads its rows as they were (triggers and
// foreign keys are not re-run: the rows are already consistent) and its sequences, then applies
// this code's newer migrations (restoring an older backup upgrades it): all in one transaction,
// so a failed restore leaves the database empty.
export const loadDatabase = async (
  db: Database,
  dir: string,
  manifest: BackupManifest,
): Promise<void> => {
  await assertEmpty(db);
  const files = await readMigrationFiles();
  const upTo = assertBuildable(manifest, files);
  await db.transaction(async (tx) => {
    await tx.query('SET LOCAL statement_timeout = 0');
    await migrateWithin(tx, files, { upTo });
    try {
      await tx.query('SET LOCAL session_replication_role = replica');
    } catch (error) {
      throw new Error(
        'Restoring needs a database role that may set session_replication_role (a superuser, ' +
          'or on PostgreSQL 15+ one granted SET on it); the embedded PostgreSQL has one.',
        { cause: error },
      );
    }
    await loadRows(tx, dir, manifest);
    // Newer migrations run as at any start: with their triggers.
    await tx.query('SET LOCAL session_replication_role = origin');
    await migrateWithin(tx, files);
  });
};

const loadRows = async (tx: Queryable, dir: string, manifest: BackupManifest): Promise<void> => {
  const tables = await backedUpTables(tx);
  const missing = manifest.tables.filter((table) => !tables.includes(table.name));
  if (missing.length > 0) {
    throw new Error(
      `The backup has tables its schema lacks: ${missing.map((table) => table.name).join(', ')}`,
    );
  }
  // What the migrations inserted (the catalogue) comes back from the backup as it was.
  if (tables.length > 0) await tx.query(`TRUNCATE ${tables.map(quoted).join(', ')}`);
  for (const table of manifest.tables) {
    const loaded = await loadTable(tx, dir, table.name);
    if (loaded !== table.rows) {
      throw new Error(
        `The backup's ${table.name} holds ${loaded} rows, its manifest says ${table.rows}`,
      );
    }
  }
  for (const sequence of manifest.sequences) {
    if (sequence.lastValue === null) {
      await tx.query(`ALTER SEQUENCE ${quoted(sequence.name)} RESTART`);
    } else {
      await tx.query(`SELECT setval($1::regclass, $2::bigint)`, [
        quoted(sequence.name),
        sequence.lastValue,
      ]);
    }
  }
};
