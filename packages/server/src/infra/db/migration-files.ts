import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The migrations folder sits beside src/ and dist/, so the same relative path works from both.
export const migrationsDir = fileURLToPath(new URL('../../../migrations/', import.meta.url));

export type MigrationFile = { name: string; sql: string; checksum: string };

export const migrationNamePattern = /^(\d{4})-[a-z0-9-]+\.sql$/;

// The checksum recorded for an applied migration. Line endings are normalised so that a checkout
// converting them (git's autocrlf) is not mistaken for an edited migration.
export const migrationChecksum = (sql: string): string =>
  createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');

// Every migration file, in the order they apply (their number).
export const readMigrationFiles = async (dir = migrationsDir): Promise<MigrationFile[]> => {
  const names = (await readdir(dir)).filter((name) => migrationNamePattern.test(name)).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name), 'utf8');
      return { name, sql, checksum: migrationChecksum(sql) };
    }),
  );
};
