import { randomBytes } from 'node:crypto';
import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase } from './database.js';
import { migrate } from './migrate.js';
import { migrationsDir, readMigrationFiles } from './migration-files.js';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// An empty database of its own, dropped after the test.
const emptyDatabaseUrl = async (): Promise<string> => {
  const adminUrl = inject('postgresAdminUrl');
  const name = `flotilla_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  cleanups.push(async () => {
    await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
    await admin.end();
  });
  return url.toString();
};

const connect = (url: string): Database => {
  const db = openDatabase(url, { max: 1 });
  cleanups.push(() => db.close());
  return db;
};

const emptyDatabase = async (): Promise<Database> => connect(await emptyDatabaseUrl());

const copyOfMigrations = async (): Promise<string> => {
  const dir = await mkdtemp(path.join(tmpdir(), 'flotilla-migrations-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await cp(migrationsDir, dir, { recursive: true });
  return dir;
};

describe('migrations', () => {
  it('apply once, in one transaction, even when two processes start together', async () => {
    const url = await emptyDatabaseUrl();
    const first = connect(url);
    const second = connect(url);
    const [a, b] = await Promise.all([migrate(first), migrate(second)]);
    const applied = [...a.applied, ...b.applied].sort();
    const recorded = await first.query<{ name: string }>(
      'SELECT name FROM flotilla_migration ORDER BY name',
    );
    expect(applied).toEqual(recorded.rows.map((row) => row.name));
    expect(recorded.rows.length).toBeGreaterThan(0);
    expect((await migrate(first)).applied).toEqual([]);
  });

  it('record a checksum per migration, backfilled for databases migrated without them', async () => {
    const db = await emptyDatabase();
    await migrate(db);
    // A database migrated by the code from before checksums.
    await db.query('ALTER TABLE flotilla_migration DROP COLUMN checksum');
    expect((await migrate(db)).applied).toEqual([]);
    const { rows } = await db.query<{ name: string; checksum: string }>(
      'SELECT name, checksum FROM flotilla_migration ORDER BY name',
    );
    expect(rows).toEqual(
      (await readMigrationFiles()).map(({ name, checksum }) => ({ name, checksum })),
    );
  });

  it('refuse to start when an applied migration changed', async () => {
    const db = await emptyDatabase();
    const dir = await copyOfMigrations();
    await migrate(db, dir);
    await appendFile(path.join(dir, '0003-auth.sql'), '\n-- edited after release\n');
    await expect(migrate(db, dir)).rejects.toThrow(
      /Migrations changed after they were applied to this database: 0003-auth\.sql/,
    );
  });

  it('refuse to start on a database a newer Flotilla migrated', async () => {
    const db = await emptyDatabase();
    await migrate(db);
    await db.query(
      "INSERT INTO flotilla_migration (name, checksum) VALUES ('9999-from-the-future.sql', 'x')",
    );
    await expect(migrate(db)).rejects.toThrow(
      /does not know \(9999-from-the-future\.sql\): a newer version upgraded it/,
    );
  });
});

// The tables whose rows an upgrade must keep, as JSON (whatever columns they have then).
const upgradeTables = ['user', 'organization', 'application', 'device', 'release', 'release_asset'];

const snapshot = async (db: Database): Promise<Map<string, unknown[]>> => {
  const tables = new Map<string, unknown[]>();
  for (const table of upgradeTables) {
    const { rows } = await db.query<{ row: unknown }>(
      `SELECT to_jsonb(t) AS row FROM "${table}" t ORDER BY "id"`,
    );
    tables.set(
      table,
      rows.map((entry) => entry.row),
    );
  }
  return tables;
};

describe('an upgrade', () => {
  it("migrates a database of the previous releases' schema with data in it, keeping the data", async () => {
    const db = await emptyDatabase();
    const files = await readMigrationFiles();
    // The schema three migrations ago stands in for the previous release's.
    const previous = files.at(-4)?.name;
    expect(previous).toBeDefined();
    const before = await migrate(db, migrationsDir, { upTo: previous });
    expect(before.applied.length).toBe(files.length - 3);
    await db.query(`
      INSERT INTO "organization" ("id", "name", "handle") VALUES (1, 'Acme', 'acme');
      INSERT INTO "user" ("id", "username", "email", "password_hash")
        VALUES (1, 'alice', 'alice@example.com', '$2b$10$abcdefghijklmnopqrstuv');
      INSERT INTO "application" ("id", "organization", "app_name", "slug", "is_for__device_type")
        VALUES (1, 1, 'Fleet', 'acme/fleet', (SELECT min("id") FROM "device_type"));
      INSERT INTO "release" ("id", "belongs_to__application", "commit", "status", "source")
        VALUES (1, 1, 'abc123', 'success', 'cloud');
      INSERT INTO "release_asset" ("id", "release", "asset_key", "asset")
        VALUES (1, 1, 'notes.txt', '{"uuid": "0123456789abcdef0123456789abcdef", "size": 5}');
      INSERT INTO "device" ("id", "device_name", "is_of__device_type", "belongs_to__application",
          "is_running__release")
        VALUES (1, 'pi', (SELECT min("id") FROM "device_type"), 1, 1);
    `);
    const old = await snapshot(db);
    const after = await migrate(db);
    expect(after.applied).toEqual(files.slice(-3).map((file) => file.name));
    const upgraded = await snapshot(db);
    for (const table of upgradeTables) {
      expect(upgraded.get(table), table).toHaveLength(1);
      expect(upgraded.get(table), table).toMatchObject(old.get(table) ?? []);
    }
  });
});
