import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase } from '../../infra/db/database.js';
import { migrate } from '../../infra/db/migrate.js';
import { migrationsDir } from '../../infra/db/migration-files.js';

// Databases from before the identity migration may hold usernames that differ only in case.
const identityMigration = '0006-identity.sql';

let admin: pg.Client;
let db: Database;
let name: string;
let dir: string;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
  await admin.connect();
  name = `flotilla_t_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(inject('postgresAdminUrl'));
  url.pathname = `/${name}`;
  db = openDatabase(url.toString(), { max: 1 });
  dir = await mkdtemp(path.join(tmpdir(), 'flotilla-migrations-'));
  for (const file of await readdir(migrationsDir)) {
    if (file.endsWith('.sql') && file < identityMigration) {
      await copyFile(path.join(migrationsDir, file), path.join(dir, file));
    }
  }
  await migrate(db, dir);
});

afterAll(async () => {
  await db.close();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
  await rm(dir, { recursive: true, force: true });
});

describe(`migration ${identityMigration}`, () => {
  it('keeps the name for the oldest account and renames later case variants', async () => {
    const long = 'b'.repeat(30);
    await db.query(
      `INSERT INTO "user" ("id", "username") VALUES
         (1, 'alice'), (2, 'Alice'), (3, 'ALICE'), (5, 'alice_3'), (6, $1), (7, $2)`,
      [long, long.toUpperCase()],
    );
    await copyFile(path.join(migrationsDir, identityMigration), path.join(dir, identityMigration));
    expect((await migrate(db, dir)).applied).toEqual([identityMigration]);
    const { rows } = await db.query<{ id: number; username: string }>(
      'SELECT "id", "username" FROM "user" ORDER BY "id"',
    );
    expect(rows).toEqual([
      { id: 1, username: 'alice' },
      { id: 2, username: 'Alice_2' },
      // "ALICE_3" is taken (ignoring case) by user 5.
      { id: 3, username: 'ALICE_3_1' },
      { id: 5, username: 'alice_3' },
      { id: 6, username: long },
      { id: 7, username: `${'B'.repeat(28)}_7` },
    ]);
    await expect(
      db.query(`INSERT INTO "user" ("username") VALUES ('aLiCe')`),
    ).rejects.toMatchObject({ code: '23505' });
  });
});
