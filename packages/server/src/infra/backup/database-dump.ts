import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Database, Queryable } from '../db/database.js';
import { readMigrationFiles } from '../db/migration-files.js';
import { type BackupManifest, tableFile, tablesDirName } from './backup-manifest.js';
import { backedUpTables, quoted } from './database-tables.js';

const fetchSize = 1000;

const rowsOf = async function* (tx: Queryable, table: string): AsyncGenerator<string> {
  await tx.query(`DECLARE "backup_rows" NO SCROLL CURSOR FOR SELECT to_jsonb(t)::text AS "row"
    FROM ${quoted(table)} t`);
  for (;;) {
    const { rows } = await tx.query<{ row: string }>(`FETCH ${fetchSize} FROM "backup_rows"`);
    if (rows.length === 0) break;
    yield `${rows.map((entry) => entry.row).join('\n')}\n`;
  }
  await tx.query('CLOSE "backup_rows"');
};

// Writes every table's rows as of one snapshot (a repeatable-read, read-only transaction: the
// server may keep running) and answers what the manifest says of the database.
export type DatabaseDump = Omit<BackupManifest, 'format' | 'createdAt'>;

export const dumpDatabase = async (db: Database, dir: string): Promise<DatabaseDump> => {
  await mkdir(path.join(dir, tablesDirName), { recursive: true });
  const known = new Map((await readMigrationFiles()).map((file) => [file.name, file.checksum]));
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await tx.query('SET LOCAL statement_timeout = 0');
    const ledger = await tx.query<{ present: boolean }>(
      `SELECT to_regclass('public.flotilla_migration') IS NOT NULL AS "present"`,
    );
    if (!ledger.rows[0]?.present) throw new Error('The database holds no Flotilla installation');
    const migrations = (
      await tx.query<{ name: string; checksum: string | null }>(
        'SELECT "name", "checksum" FROM flotilla_migration ORDER BY "name"',
      )
    ).rows.map((row) => ({ name: row.name, checksum: row.checksum ?? known.get(row.name) ?? '' }));
    const unknown = migrations.filter((row) => !known.has(row.name)).map((row) => row.name);
    if (unknown.length > 0) {
      throw new Error(
        `The database has migrations this Flotilla does not know (${unknown.join(', ')}): back ` +
          'it up with the version that runs it.',
      );
    }
    const tables: BackupManifest['tables'] = [];
    for (const table of await backedUpTables(tx)) {
      let rows = 0;
      const counted = async function* (): AsyncGenerator<string> {
        for await (const chunk of rowsOf(tx, table)) {
          rows += chunk.split('\n').length - 1;
          yield chunk;
        }
      };
      await pipeline(
        Readable.from(counted()),
        createGzip(),
        createWriteStream(tableFile(dir, table), { mode: 0o600 }),
      );
      tables.push({ name: table, rows });
    }
    // Read after the rows, so that no restored sequence hands out an id a row already has.
    const sequences = (
      await tx.query<{ name: string; last_value: string | null }>(
        `SELECT "sequencename" AS "name", "last_value"::text AS "last_value" FROM pg_sequences
          WHERE "schemaname" = 'public' ORDER BY "sequencename"`,
      )
    ).rows.map((row) => ({ name: row.name, lastValue: row.last_value }));
    const version = await tx.query<{ version: string }>('SHOW server_version');
    return {
      migrations,
      tables,
      sequences,
      postgresVersion: version.rows[0]?.version ?? 'unknown',
    };
  });
};
