import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from './infra/config/config.js';
import { generateApiKey, hashApiKey } from './infra/auth/api-key-tokens.js';
import { loadSigningSecret } from './infra/auth/signing-secret.js';
import { type Database, openDatabase, type Queryable } from './infra/db/database.js';
import { accessInstallationDatabase } from './infra/db/embedded-access.js';
import { migrate } from './infra/db/migrate.js';
import { migrationsDir, readMigrationFiles } from './infra/db/migration-files.js';
import { readManifest } from './infra/backup/backup-manifest.js';
import { backedUpTables } from './infra/backup/database-tables.js';
import { backupInstallation, restoreInstallation } from './infra/backup/installation-backup.js';
import { issueSessionToken } from './features/auth/issue-session-token.js';
import {
  createDevice,
  createFleet,
  createOrganization,
  createRelease,
  createUser,
} from './test-support/fixtures.js';
import { createTestDatabase } from './test-support/test-database.js';
import { type RunningServer, startServer } from './start-server.js';

// An installation (an external database and its data directory) backed up, restored into a new
// data directory with an embedded PostgreSQL, and started from the restore.

let db: Database;
let work: string;
let sourceDir: string;
let restoredDir: string;
let backupDir: string;
let server: RunningServer | undefined;
let sessionToken = '';
const deviceKey = generateApiKey();
let deviceUuid = '';
const assetUuid = randomBytes(16).toString('hex');
let fleetUuid = '';

// Every backed-up table's rows, in a stable order, as JSON.
const contents = async (queryable: Queryable): Promise<Record<string, string[]>> => {
  const result: Record<string, string[]> = {};
  for (const table of await backedUpTables(queryable)) {
    if (table === 'flotilla_installation') continue;
    const { rows } = await queryable.query<{ row: string }>(
      `SELECT to_jsonb(t)::text AS "row" FROM "${table}" t ORDER BY 1`,
    );
    result[table] = rows.map((entry) => entry.row);
  }
  return result;
};

const filesUnder = async (dir: string): Promise<Record<string, string>> => {
  const result: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    result[path.relative(dir, file)] = await readFile(file, 'base64');
  }
  return result;
};

const silent = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

beforeAll(async () => {
  db = await createTestDatabase();
  work = await mkdtemp(path.join(tmpdir(), 'flotilla-backup-'));
  sourceDir = path.join(work, 'source');
  restoredDir = path.join(work, 'restored');
  backupDir = path.join(work, 'backup');
  const jwtSecret = await loadSigningSecret({ jwtSecret: undefined, dataDir: sourceDir });
  const alice = await createUser(db, 'alice');
  sessionToken = await issueSessionToken({ jwtSecret, now: () => new Date() }, db, alice.userId);
  const fleet = await createFleet(db, await createOrganization(db, 'Acme'), 'pumps');
  fleetUuid = fleet.uuid;
  const device = await createDevice(db, fleet.id, 'pump-1');
  deviceUuid = device.uuid;
  await db.query('INSERT INTO "api_key" ("is_of__actor", "key_hash") VALUES ($1, $2)', [
    device.actorId,
    hashApiKey(deviceKey),
  ]);
  const release = await createRelease(db, fleet.id, 'abc123');
  await db.query(
    `INSERT INTO "release_asset" ("release", "asset_key", "asset") VALUES ($1, 'notes.txt', $2)`,
    [release, JSON.stringify({ uuid: assetUuid, size: 5, filename: 'notes.txt' })],
  );
  await mkdir(path.join(sourceDir, 'release-assets'), { recursive: true });
  await writeFile(path.join(sourceDir, 'release-assets', assetUuid), 'notes');
  const repository = path.join(sourceDir, 'git', `${fleetUuid}.git`);
  await mkdir(path.join(repository, 'refs', 'heads'), { recursive: true });
  await writeFile(path.join(repository, 'HEAD'), 'ref: refs/heads/main\n');
  await writeFile(path.join(repository, 'refs', 'heads', 'main'), `${'a'.repeat(40)}\n`);
  await writeFile(path.join(sourceDir, 'registry-token.key'), 'PRIVATE KEY\n', { mode: 0o600 });
});

afterAll(async () => {
  await server?.stop();
  await db.close();
  await rm(work, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('round-trips rows, files, sessions and device keys into a new data directory', async () => {
    await backupInstallation({ databaseUrl: db.url, dataDir: sourceDir }, backupDir);
    await expect(
      backupInstallation({ databaseUrl: db.url, dataDir: sourceDir }, backupDir),
    ).rejects.toThrow(/is not empty/);

    await restoreInstallation(backupDir, { databaseUrl: undefined, dataDir: restoredDir });
    await expect(
      restoreInstallation(backupDir, { databaseUrl: undefined, dataDir: restoredDir }),
    ).rejects.toThrow(/is not empty: restore into a new data directory/);

    // Every row of every table, before a server touches the restored database.
    const restored = await accessInstallationDatabase({
      databaseUrl: undefined,
      dataDir: restoredDir,
    });
    const restoredDb = openDatabase(restored.url, { max: 1 });
    try {
      expect(await contents(restoredDb)).toEqual(await contents(db));
    } finally {
      await restoredDb.close();
      await restored.release();
    }
    const sourceFiles = await filesUnder(sourceDir);
    const restoredFiles = await filesUnder(restoredDir);
    for (const file of [
      'jwt-secret',
      'registry-token.key',
      `release-assets/${assetUuid}`,
      `git/${fleetUuid}.git/HEAD`,
      `git/${fleetUuid}.git/refs/heads/main`,
    ]) {
      expect(restoredFiles[file], file).toBe(sourceFiles[file]);
    }

    server = await startServer(
      loadConfig({
        FLOTILLA_DATA_DIR: restoredDir,
        PORT: '0',
        FLOTILLA_DEMO: 'off',
        FLOTILLA_LOG_LEVEL: 'silent',
      }),
      () => undefined,
      silent,
    );
    expect(server.ctx.installation.kind).toBe('bound');
    const whoami = await fetch(`${server.url}/actor/v1/whoami`, {
      headers: { authorization: `Bearer ${sessionToken}` },
    });
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toMatchObject({ username: 'alice' });
    const state = await fetch(`${server.url}/device/v3/${deviceUuid}/state`, {
      headers: { authorization: `Bearer ${deviceKey}` },
    });
    expect(state.status).toBe(200);

    // A backup of the running installation goes through its running PostgreSQL.
    const second = path.join(work, 'second');
    await backupInstallation({ databaseUrl: undefined, dataDir: restoredDir }, second);
    // The copy's own cluster, password and id are not the installation's to back up.
    const backedUp = await readdir(path.join(second, 'files'));
    expect(backedUp).toContain('jwt-secret');
    for (const local of ['postgres', 'postgres-password', 'installation']) {
      expect(backedUp).not.toContain(local);
    }
    const first = await readManifest(backupDir);
    const again = await readManifest(second);
    expect(again.migrations).toEqual(first.migrations);
    expect(again.tables.find((table) => table.name === 'device')).toEqual({
      name: 'device',
      rows: 1,
    });
  });

  it("restores an older version's backup into an empty external database, upgrading it", async () => {
    const adminUrl = inject('postgresAdminUrl');
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const names = [1, 2].map(() => `flotilla_t_${randomBytes(6).toString('hex')}`);
    const urls = names.map((name) => {
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    });
    const [olderUrl = '', targetUrl = ''] = urls;
    const older = openDatabase(olderUrl, { max: 1 });
    const target = openDatabase(targetUrl, { max: 1 });
    try {
      for (const name of names) await admin.query(`CREATE DATABASE "${name}"`);
      const files = await readMigrationFiles();
      await migrate(older, migrationsDir, { upTo: files.at(-4)?.name });
      const fleet = await createFleet(older, await createOrganization(older, 'Old'), 'kept');
      const olderDir = path.join(work, 'older');
      await mkdir(olderDir);
      await backupInstallation({ databaseUrl: olderUrl, dataDir: olderDir }, path.join(work, 'ob'));
      await restoreInstallation(path.join(work, 'ob'), {
        databaseUrl: targetUrl,
        dataDir: path.join(work, 'older-restored'),
      });
      const applied = await target.query<{ name: string }>(
        'SELECT "name" FROM flotilla_migration ORDER BY "name"',
      );
      expect(applied.rows.map((row) => row.name)).toEqual(files.map((file) => file.name));
      const kept = await target.query<{ uuid: string }>('SELECT "uuid" FROM "application"');
      expect(kept.rows).toEqual([{ uuid: fleet.uuid }]);
      // A database with rows is never restored into.
      await expect(
        restoreInstallation(path.join(work, 'ob'), {
          databaseUrl: targetUrl,
          dataDir: path.join(work, 'again'),
        }),
      ).rejects.toThrow(
        /is not empty: restore into a new data directory .* or a new, empty database/,
      );
    } finally {
      await older.close();
      await target.close();
      for (const name of names) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
