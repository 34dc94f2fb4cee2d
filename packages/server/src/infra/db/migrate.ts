import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';

// The migrations folder sits beside src/ and dist/, so the same relative path works from both.
export const migrationsDir = fileURLToPath(new URL('../../../migrations/', import.meta.url));

// Any fixed number shared by every Flotilla process: serialises concurrent migrators.
const migrationLockKey = 7_461_002;

export type MigrationResult = { applied: string[] };

// Applies every migration file not yet recorded, in name order, all in one transaction under an
// advisory lock, so two processes starting together never apply one twice.
export const migrate = async (db: Database, dir = migrationsDir): Promise<MigrationResult> => {
  const files = (await readdir(dir)).filter((name) => /^\d{4}-[a-z0-9-]+\.sql$/.test(name)).sort();
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [migrationLockKey]);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS flotilla_migration (
         name text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const done = new Set(
      (await tx.query<{ name: string }>('SELECT name FROM flotilla_migration')).rows.map(
        (row) => row.name,
      ),
    );
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      await tx.query(await readFile(`${dir}/${file}`, 'utf8'));
      await tx.query('INSERT INTO flotilla_migration (name) VALUES ($1)', [file]);
      applied.push(file);
    }
    return { applied };
  });
};
