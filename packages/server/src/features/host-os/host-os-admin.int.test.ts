import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import * as fx from '../../test-support/fixtures.js';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';

// The host OS catalogue's admin routes: only platform administrators write it (add, edit,
// invalidate, remove, import a file, idempotently and all or nothing), and everyone signed in
// reads it through /v7 as balena's API serves it.

let db: Database;
let app: FastifyInstance;
let admin: string;
let member: string;
let memberKey: string;

const signUp = async (
  username: string,
  role?: string,
): Promise<{ token: string; actor: number }> => {
  const { rows } = await db.query<{ id: number; actor: number }>(
    `INSERT INTO "user" ("username", "email", "password_hash") VALUES ($1, $2, $3)
     RETURNING "id", "actor"`,
    [username, `${username}@example.com`, await hashTestPassword(`${username}-password`)],
  );
  const row = rows[0];
  if (row === undefined) throw new Error('no user');
  if (role) {
    await db.query(`INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, $2)`, [
      row.id,
      role,
    ]);
  }
  const login = await app.inject({
    method: 'POST',
    url: '/login_',
    payload: { username, password: `${username}-password` },
  });
  expect(login.statusCode).toBe(200);
  return { token: login.body, actor: row.actor };
};

const as = (token: string | undefined) =>
  token === undefined ? {} : { authorization: `Bearer ${token}` };

const tables = ['organization', 'application', 'release', 'service', 'image', 'release_image'];
// Every row of the tables the catalogue writes, to tell "nothing changed" exactly.
const snapshot = async (): Promise<string> => {
  const parts: string[] = [];
  for (const table of tables) {
    const { rows } = await db.query<{ row: string }>(
      `SELECT row_to_json(t)::text AS "row" FROM "${table}" t ORDER BY t."id"`,
    );
    parts.push(`${table}: ${rows.map((row) => row.row).join('\n')}`);
  }
  return parts.join('\n');
};

const osEntry = {
  kind: 'os',
  deviceType: 'raspberrypi4-64',
  version: '6.0.13',
  variant: 'prod',
  phase: 'current',
  notes: '* Kernel 6.1',
  updaterImage: 'registry.example.com/balena-os/raspberrypi4-64:6.0.13',
};

beforeAll(async () => {
  db = await createTestDatabase();
  app = buildServer(createTestContext(db));
  await app.ready();
  admin = (await signUp('root', 'balena_admin')).token;
  const user = await signUp('member');
  member = user.token;
  memberKey = await createApiKey(db, user.actor, { name: 'member key' });
});
afterAll(async () => {
  await app.close();
  await db.close();
});

describe('host OS catalogue administration', () => {
  it('refuses everyone but a platform administrator and writes nothing', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/admin/v1/host-os/releases',
      headers: as(admin),
      payload: { ...osEntry, version: '6.0.10' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ id: number }>().id;
    const before = await snapshot();
    const calls = [
      { method: 'GET', url: '/admin/v1/host-os/releases' },
      { method: 'POST', url: '/admin/v1/host-os/releases', payload: osEntry },
      { method: 'PATCH', url: `/admin/v1/host-os/releases/${id}`, payload: { invalidated: true } },
      { method: 'DELETE', url: `/admin/v1/host-os/releases/${id}` },
      { method: 'POST', url: '/admin/v1/host-os/catalogue', payload: { releases: [osEntry] } },
    ] as const;
    for (const call of calls) {
      for (const token of [undefined, member, memberKey]) {
        const response = await app.inject({ ...call, headers: as(token) });
        expect(response.statusCode, `${call.method} ${call.url}`).toBe(401);
      }
    }
    expect(await snapshot()).toBe(before);
    const removed = await app.inject({
      method: 'DELETE',
      url: `/admin/v1/host-os/releases/${id}`,
      headers: as(admin),
    });
    expect(removed.statusCode).toBe(204);
  });

  it('adds, edits, invalidates and removes releases, with clear refusals', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/admin/v1/host-os/releases',
      headers: as(admin),
      payload: osEntry,
    });
    expect(created.statusCode).toBe(201);
    const release = created.json<{ id: number }>();
    expect(release).toMatchObject({
      kind: 'os',
      application: 'balena_os/raspberrypi4-64',
      deviceType: 'raspberrypi4-64',
      cpuArchitecture: 'aarch64',
      version: '6.0.13',
      rawVersion: '6.0.13',
      variant: 'prod',
      phase: 'current',
      notes: '* Kernel 6.1',
      updaterImage: osEntry.updaterImage,
      invalidated: false,
    });
    const again = await app.inject({
      method: 'POST',
      url: '/admin/v1/host-os/releases',
      headers: as(admin),
      payload: osEntry,
    });
    expect(again.statusCode).toBe(409);
    const badVersion = await app.inject({
      method: 'POST',
      url: '/admin/v1/host-os/releases',
      headers: as(admin),
      payload: { ...osEntry, version: 'six' },
    });
    expect(badVersion.statusCode).toBe(400);
    expect(badVersion.body).toMatch(/version: must be a semantic/);
    const unknownType = await app.inject({
      method: 'POST',
      url: '/admin/v1/host-os/releases',
      headers: as(admin),
      payload: { ...osEntry, deviceType: 'toaster-9000' },
    });
    expect(unknownType.statusCode).toBe(400);
    expect(unknownType.body).toMatch(/unknown device type toaster-9000/);

    const edited = await app.inject({
      method: 'PATCH',
      url: `/admin/v1/host-os/releases/${release.id}`,
      headers: as(admin),
      payload: {
        notes: '* Kernel 6.6',
        knownIssues: 'Wi-Fi drops on 5 GHz',
        updaterImage: 'registry.example.com/balena-os/raspberrypi4-64:6.0.13-1',
        invalidated: true,
      },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      notes: '* Kernel 6.6',
      knownIssues: 'Wi-Fi drops on 5 GHz',
      updaterImage: 'registry.example.com/balena-os/raspberrypi4-64:6.0.13-1',
      invalidated: true,
      phase: 'current',
    });
    const empty = await app.inject({
      method: 'PATCH',
      url: `/admin/v1/host-os/releases/${release.id}`,
      headers: as(admin),
      payload: {},
    });
    expect(empty.statusCode).toBe(400);

    // A release a device is told to run stays (invalidate it instead).
    const organization = await fx.createOrganization(db, 'Operators');
    const fleet = await fx.createFleet(db, organization, 'Gateways', { isPublic: true });
    const device = await fx.createDevice(db, fleet.id, 'gateway');
    await db.query(`UPDATE "device" SET "should_be_operated_by__release" = $2 WHERE "id" = $1`, [
      device.id,
      release.id,
    ]);
    // The list says how many devices are told to run each release.
    const listed = await app.inject({
      method: 'GET',
      url: '/admin/v1/host-os/releases',
      headers: as(admin),
    });
    expect(listed.json<{ id: number; devices: number }[]>()).toContainEqual(
      expect.objectContaining({ id: release.id, devices: 1 }),
    );
    const inUse = await app.inject({
      method: 'DELETE',
      url: `/admin/v1/host-os/releases/${release.id}`,
      headers: as(admin),
    });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.body).toMatch(/of 1 device\(s\): invalidate it instead/);
    await db.query(`UPDATE "device" SET "should_be_operated_by__release" = NULL WHERE "id" = $1`, [
      device.id,
    ]);
    // A fleet's own release, even a public fleet's, is not the catalogue's.
    const fleetRelease = await fx.createRelease(db, fleet.id, 'a'.repeat(32));
    for (const method of ['PATCH', 'DELETE'] as const) {
      const response = await app.inject({
        method,
        url: `/admin/v1/host-os/releases/${fleetRelease}`,
        headers: as(admin),
        payload: method === 'PATCH' ? { invalidated: true } : undefined,
      });
      expect(response.statusCode, method).toBe(404);
    }
    const untouched = await db.query<{ is_invalidated: boolean }>(
      `SELECT "is_invalidated" FROM "release" WHERE "id" = $1`,
      [fleetRelease],
    );
    expect(untouched.rows).toEqual([{ is_invalidated: false }]);
    const removed = await app.inject({
      method: 'DELETE',
      url: `/admin/v1/host-os/releases/${release.id}`,
      headers: as(admin),
    });
    expect(removed.statusCode).toBe(204);
    const gone = await app.inject({
      method: 'DELETE',
      url: `/admin/v1/host-os/releases/${release.id}`,
      headers: as(admin),
    });
    expect(gone.statusCode).toBe(404);
    const images = await db.query(
      `SELECT 1 FROM "image" WHERE "is_stored_at__image_location" LIKE 'registry.example.com/%'`,
    );
    expect(images.rowCount).toBe(0);
  });

  it('imports a catalogue file idempotently, and a bad file writes nothing', async () => {
    const file = {
      releases: [
        osEntry,
        { ...osEntry, variant: 'dev', updaterImage: null },
        { ...osEntry, version: '5.3.21', phase: 'sunset', knownIssues: 'Old kernel' },
        { kind: 'os', deviceType: 'generic-amd64', version: '6.0.13', variant: 'prod' },
        {
          kind: 'supervisor',
          cpuArchitecture: 'aarch64',
          version: '16.2.0',
          updaterImage: 'registry.example.com/balena-os/aarch64-supervisor:v16.2.0',
        },
        { kind: 'supervisor', cpuArchitecture: 'amd64', version: '16.2.0' },
      ],
    };
    const first = await app.inject({
      method: 'POST',
      url: '/admin/v1/host-os/catalogue',
      headers: as(admin),
      payload: file,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ created: 6, updated: 0, unchanged: 0 });
    const loaded = await snapshot();
    const second = await app.inject({
      method: 'POST',
      url: '/admin/v1/host-os/catalogue',
      headers: as(admin),
      payload: file,
    });
    expect(second.json()).toEqual({ created: 0, updated: 0, unchanged: 6 });
    expect(await snapshot()).toBe(loaded);

    // A changed entry is brought in line; the rest stay as they are.
    const changed = await app.inject({
      method: 'POST',
      url: '/admin/v1/host-os/catalogue',
      headers: as(admin),
      payload: { releases: [{ ...osEntry, invalidated: true }] },
    });
    expect(changed.json()).toEqual({ created: 0, updated: 1, unchanged: 0 });

    const afterChange = await snapshot();
    const unknown = await app.inject({
      method: 'POST',
      url: '/admin/v1/host-os/catalogue',
      headers: as(admin),
      payload: {
        releases: [
          { ...osEntry, version: '7.0.0' },
          { kind: 'os', deviceType: 'toaster-9000', version: '7.0.0' },
        ],
      },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toMatch(/releases\[1\] \(os toaster-9000 7\.0\.0\): unknown device type/);
    const malformed = await app.inject({
      method: 'POST',
      url: '/admin/v1/host-os/catalogue',
      headers: as(admin),
      payload: {
        releases: [
          { ...osEntry, version: '7.0.0' },
          { ...osEntry, phase: 'later' },
        ],
      },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toMatch(/releases\.1\.phase/);
    const repeated = await app.inject({
      method: 'POST',
      url: '/admin/v1/host-os/catalogue',
      headers: as(admin),
      payload: {
        releases: [
          { ...osEntry, version: '7.0.0' },
          { ...osEntry, version: '7.0.0' },
        ],
      },
    });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.body).toMatch(/releases\[1\].*repeats/);
    expect(await snapshot()).toBe(afterChange);
  });

  it('is read through /v7 by an ordinary user and an API key, as balena-sdk asks', async () => {
    const hostApps = encodeURI(
      `/v7/application?$select=is_for__device_type&$expand=application_tag($select=tag_key,value),is_for__device_type($select=slug),owns__release($select=id,known_issue_list,raw_version,variant,phase;$expand=release_tag($select=tag_key,value);$filter=is_final eq true and is_invalidated eq false and status eq 'success')&$filter=is_host eq true and is_for__device_type/any(dt:dt/slug in ('raspberrypi4-64'))`,
    );
    for (const token of [member, memberKey]) {
      const response = await app.inject({ method: 'GET', url: hostApps, headers: as(token) });
      expect(response.statusCode).toBe(200);
      const apps = response.json<{
        d: {
          is_for__device_type: { slug: string }[];
          owns__release: { raw_version: string; variant: string; phase: string | null }[];
        }[];
      }>().d;
      expect(apps).toHaveLength(1);
      // 6.0.13 prod was invalidated by the import above: only the valid ones are offered.
      expect(
        apps[0]?.owns__release.map((release) => `${release.raw_version} ${release.variant}`).sort(),
      ).toEqual(['5.3.21 prod', '6.0.13 dev']);
    }
    const supervisors = encodeURI(
      `/v7/release?$select=id,raw_version,known_issue_list&$filter=status eq 'success' and is_final eq true and is_invalidated eq false and semver_major gt 0 and belongs_to__application/any(a:startswith(a/slug,'balena_os/') and endswith(a/slug,'-supervisor') and a/is_public eq true and a/is_host eq false and a/is_for__device_type/any(dt:dt/is_of__cpu_architecture/any(c:c/slug eq 'aarch64')))&$orderby=semver_major desc,semver_minor desc,semver_patch desc,revision desc`,
    );
    const response = await app.inject({ method: 'GET', url: supervisors, headers: as(member) });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ d: { raw_version: string }[] }>().d.map((r) => r.raw_version)).toEqual([
      '16.2.0',
    ]);
    // Ordinary users cannot write the catalogue through /v7 either.
    const write = await app.inject({
      method: 'POST',
      url: '/v7/release',
      headers: as(member),
      payload: {
        belongs_to__application: 1,
        commit: 'f'.repeat(32),
        status: 'success',
        source: 'cloud',
      },
    });
    expect([401, 403, 404]).toContain(write.statusCode);
  });

  it("records an ESR release's base version as balena's meta-balena-base tag", async () => {
    const esr = { ...osEntry, version: '2024.4.0', baseVersion: '6.0.13' };
    const created = await app.inject({
      method: 'POST',
      url: '/admin/v1/host-os/releases',
      headers: as(admin),
      payload: esr,
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, baseVersion } = created.json<{ id: number; baseVersion: string | null }>();
    expect(baseVersion).toBe('6.0.13');
    // Anyone signed in reads it through /v7, as balena-sdk's basedOnVersion does.
    const tagOf = async (): Promise<unknown> => {
      const response = await app.inject({
        method: 'GET',
        url: encodeURI(`/v7/release(${id})?$select=id&$expand=release_tag($select=tag_key,value)`),
        headers: as(member),
      });
      expect(response.statusCode).toBe(200);
      return response.json<{ d: { release_tag: unknown[] }[] }>().d[0]?.release_tag;
    };
    expect(await tagOf()).toEqual([{ tag_key: 'meta-balena-base', value: '6.0.13' }]);
    const edit = (payload: object) =>
      app.inject({
        method: 'PATCH',
        url: `/admin/v1/host-os/releases/${id}`,
        headers: as(admin),
        payload,
      });
    expect((await edit({ baseVersion: '6.1.0' })).statusCode).toBe(200);
    expect(await tagOf()).toEqual([{ tag_key: 'meta-balena-base', value: '6.1.0' }]);
    // A base must be a regular version, and only ESR releases have one.
    const esrBase = await edit({ baseVersion: '2023.1.0' });
    expect(esrBase.statusCode).toBe(400);
    expect(esrBase.body).toBe(`Release ${id}: baseVersion must be a regular (non-ESR) version`);
    const regular = await app.inject({
      method: 'POST',
      url: '/admin/v1/host-os/releases',
      headers: as(admin),
      payload: { ...osEntry, version: '6.5.0', baseVersion: '6.0.13' },
    });
    expect(regular.statusCode).toBe(400);
    expect(regular.body).toContain('baseVersion is only for ESR releases (major above 2000)');
    // An import that leaves it out clears it, as other fields.
    const imported = await app.inject({
      method: 'POST',
      url: '/admin/v1/host-os/catalogue',
      headers: as(admin),
      payload: { releases: [{ ...osEntry, version: '2024.4.0' }] },
    });
    expect(imported.json()).toMatchObject({ updated: 1 });
    expect(await tagOf()).toEqual([]);
    expect((await edit({ baseVersion: null })).statusCode).toBe(200);
  });
});
