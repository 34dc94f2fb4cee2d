import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { type Database, openDatabase } from './infra/db/database.js';
import { migrate } from './infra/db/migrate.js';
import { buildServer } from './server.js';
import { createTestContext } from './test-support/test-context.js';

// Upgrading an installation of the previous tagged version in place (docs/PRODUCTION.md,
// "Upgrade"): its database, made by that version's own migrations, demo seed, a sign-in and two
// device registrations (scripts/make-upgrade-fixture.mjs), is restored into a fresh database;
// this version's migrations run over it, and the server then serves its devices, releases and
// sessions as before, and the console's old routes.

const fixtureDir = new URL('../test-fixtures/upgrade/', import.meta.url);
const fixtureMeta = z.object({
  tag: z.string(),
  jwtSecret: z.string(),
  admin: z.object({ email: z.string(), password: z.string() }),
  sessionToken: z.string(),
  devices: z.array(z.object({ uuid: z.string(), fleet: z.string(), deviceType: z.string() })),
  releases: z.array(z.string()),
});
const tokenClaims = z.object({ iat: z.number(), exp: z.number() });

let meta: z.infer<typeof fixtureMeta>;
let db: Database;
let app: FastifyInstance;
let dropDatabase: () => Promise<void>;
let clock: Date;
let applied: string[];
let before: { devices: number; releases: number; users: number };

const counts = async (queryable: Pick<Database, 'query'>) => {
  const { rows } = await queryable.query<{ devices: number; releases: number; users: number }>(
    `SELECT (SELECT count(*)::integer FROM public."device") AS "devices",
            (SELECT count(*)::integer FROM public."release") AS "releases",
            (SELECT count(*)::integer FROM public."user") AS "users"`,
  );
  const row = rows[0];
  if (row === undefined) throw new Error('no counts');
  return row;
};

// The dump as plain SQL for one simple query: pg_dump's psql meta-commands (\restrict) dropped.
const restoreDump = async (url: string): Promise<void> => {
  const sql = gunzipSync(await readFile(new URL(`${meta.tag}.sql.gz`, fixtureDir)))
    .toString('utf8')
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

const createEmptyDatabase = async (): Promise<string> => {
  const adminUrl = inject('postgresAdminUrl');
  const name = `flotilla_upgrade_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}" TEMPLATE template0`);
  await admin.end();
  dropDatabase = async () => {
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await cleanup.end();
  };
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

const as = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  meta = fixtureMeta.parse(JSON.parse(await readFile(new URL('v0.1.0.json', fixtureDir), 'utf8')));
  const [, payload = ''] = meta.sessionToken.split('.');
  const claims = tokenClaims.parse(JSON.parse(Buffer.from(payload, 'base64url').toString()));
  // Within the session's lifetime, as a server upgraded the same day would see it.
  clock = new Date((claims.iat + 600) * 1000);
  const url = await createEmptyDatabase();
  await restoreDump(url);
  db = openDatabase(url);
  before = await counts(db);
  ({ applied } = await migrate(db));
  // An old console build: an old tab asks for index.html on its routes.
  const consoleDir = await mkdtemp(path.join(tmpdir(), 'flotilla-upgrade-console-'));
  await mkdir(path.join(consoleDir, 'assets'));
  await writeFile(path.join(consoleDir, 'index.html'), '<!doctype html><title>Flotilla</title>');
  app = buildServer(
    createTestContext(db, {
      config: { jwtSecret: meta.jwtSecret, consoleDir },
      jwtSecret: new TextEncoder().encode(meta.jwtSecret),
      now: () => clock,
    }),
  );
  await app.ready();
}, 120_000);
afterAll(async () => {
  await app?.close();
  await db?.close();
  await dropDatabase?.();
});

describe(`upgrading a database of the previous version`, () => {
  it('applies only the migrations the previous version did not have, keeping every row', async () => {
    const { rows } = await db.query<{ name: string }>('SELECT name FROM flotilla_migration');
    expect(rows.length).toBeGreaterThan(applied.length);
    expect(await counts(db)).toEqual(before);
    expect(before.devices).toBe(meta.devices.length);
  });

  it('keeps the devices and releases, served to the old session', async () => {
    const devices = await app.inject({
      url: '/v7/device?$select=uuid&$expand=belongs_to__application($select=slug),is_of__device_type($select=slug)',
      headers: as(meta.sessionToken),
    });
    expect(devices.statusCode, devices.body).toBe(200);
    const listed = z
      .object({
        d: z.array(
          z.object({
            uuid: z.string(),
            belongs_to__application: z.array(z.object({ slug: z.string() })),
            is_of__device_type: z.array(z.object({ slug: z.string() })),
          }),
        ),
      })
      .parse(devices.json());
    expect(
      listed.d
        .map((device) => ({
          uuid: device.uuid,
          fleet: device.belongs_to__application[0]?.slug,
          deviceType: device.is_of__device_type[0]?.slug,
        }))
        .sort((a, b) => a.uuid.localeCompare(b.uuid)),
    ).toEqual([...meta.devices].sort((a, b) => a.uuid.localeCompare(b.uuid)));
    const releases = await app.inject({
      url: '/v7/release?$select=commit',
      headers: as(meta.sessionToken),
    });
    const commits = z
      .object({ d: z.array(z.object({ commit: z.string() })) })
      .parse(releases.json())
      .d.map((release) => release.commit);
    expect(commits.sort()).toEqual([...meta.releases].sort());
  });

  it('keeps sessions until they expire, then refuses them cleanly', async () => {
    const whoami = await app.inject({ url: '/actor/v1/whoami', headers: as(meta.sessionToken) });
    expect(whoami.statusCode).toBe(200);
    expect(whoami.json()).toMatchObject({ actorType: 'user', username: expect.any(String) });
    const login = await app.inject({
      method: 'POST',
      url: '/login_',
      payload: { username: meta.admin.email, password: meta.admin.password },
    });
    expect(login.statusCode).toBe(200);
    const saved = clock;
    clock = new Date(saved.getTime() + 2 * 24 * 3600 * 1000);
    try {
      const expired = await app.inject({ url: '/actor/v1/whoami', headers: as(meta.sessionToken) });
      expect(expired.statusCode).toBe(401);
      expect(expired.body).toMatch(/expired/i);
    } finally {
      clock = saved;
    }
  });

  it("serves the console's index.html for an old tab's routes", async () => {
    for (const route of [
      '/fleets',
      `/devices/${meta.devices[0]?.uuid ?? ''}`,
      '/admin/os-catalogue',
    ]) {
      const page = await app.inject({ url: route, headers: { accept: 'text/html' } });
      expect(page.statusCode, route).toBe(200);
      expect(page.body, route).toContain('<title>Flotilla</title>');
    }
  });
});
