import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable, SqlValue } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import type { AppContext } from '../../app-context.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { registerDeviceState } from './register-device-state.js';

const one = async (db: Queryable, sql: string, params: SqlValue[]): Promise<number> => {
  const { rows } = await db.query<{ id: number }>(sql, params);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`nothing returned: ${sql}`);
  return id;
};

const addImage = async (db: Queryable, serviceId: number, releaseId: number): Promise<number> => {
  const imageId = await one(
    db,
    `INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "status")
     VALUES ($1, 'registry.example/v2/x', 'success') RETURNING "id"`,
    [serviceId],
  );
  await db.query('INSERT INTO "release_image" ("image", "is_part_of__release") VALUES ($1, $2)', [
    imageId,
    releaseId,
  ]);
  return imageId;
};

type DeviceState = Record<string, unknown>;

describe('state reports: PATCH /device/v3/state', () => {
  let db: Database;
  let app: FastifyInstance;
  let ctx: AppContext;
  let clock: Date;
  let fleet: fx.FleetFixture;
  let device: fx.DeviceFixture;
  let deviceKey: string;
  let other: fx.DeviceFixture;
  let otherKey: string;
  let oldCommit: string;
  let newCommit: string;
  let oldRelease: number;
  let newRelease: number;
  let oldMainImage: number;
  let newMainImage: number;
  let sharedImage: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    clock = new Date('2030-01-01T00:00:00Z');
    ctx = createTestContext(db, { now: () => clock });
    app = await createTestApp(ctx, registerDeviceState);
    const org = await fx.createOrganization(db, 'Reports');
    fleet = await fx.createFleet(db, org, 'Reporters');
    device = await fx.createDevice(db, fleet.id, 'reporter');
    other = await fx.createDevice(db, fleet.id, 'bystander');
    deviceKey = await createApiKey(db, device.actorId, { name: 'device' });
    otherKey = await createApiKey(db, other.actorId, { name: 'device' });
    oldCommit = randomBytes(16).toString('hex');
    newCommit = randomBytes(16).toString('hex');
    oldRelease = await fx.createRelease(db, fleet.id, oldCommit);
    newRelease = await fx.createRelease(db, fleet.id, newCommit);
    const main = await one(
      db,
      `INSERT INTO "service" ("application", "service_name") VALUES ($1, 'main') RETURNING "id"`,
      [fleet.id],
    );
    const cache = await one(
      db,
      `INSERT INTO "service" ("application", "service_name") VALUES ($1, 'cache') RETURNING "id"`,
      [fleet.id],
    );
    oldMainImage = await addImage(db, main, oldRelease);
    newMainImage = await addImage(db, main, newRelease);
    // An unchanged service: one image in both releases.
    sharedImage = await addImage(db, cache, oldRelease);
    await db.query('INSERT INTO "release_image" ("image", "is_part_of__release") VALUES ($1, $2)', [
      sharedImage,
      newRelease,
    ]);
    await db.query('UPDATE "application" SET "should_be_running__release" = $2 WHERE "id" = $1', [
      fleet.id,
      newRelease,
    ]);
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  // A report, and the contact and metrics it recorded written (as the next flush would).
  const report = async (body: unknown, key = deviceKey) => {
    const response = await app.inject({
      method: 'PATCH',
      url: '/device/v3/state',
      headers: { authorization: `Bearer ${key}` },
      payload: body as Record<string, unknown>,
    });
    await ctx.contacts.flush();
    return response;
  };

  const deviceRow = async (id = device.id): Promise<DeviceState> => {
    const { rows } = await db.query<DeviceState>('SELECT * FROM "device" WHERE "id" = $1', [id]);
    return rows[0] ?? {};
  };

  const installs = async () =>
    (
      await db.query<{ image: number; status: string; progress: number | null; release: number }>(
        `SELECT "installs__image" AS "image", "status", "download_progress" AS "progress",
                "is_provided_by__release" AS "release"
           FROM "image_install" WHERE "device" = $1 ORDER BY "installs__image"`,
        [device.id],
      )
    ).rows;

  it('stores device fields, installs, the running release and the update status', async () => {
    const response = await report({
      [device.uuid]: {
        status: 'Idle',
        os_version: 'balenaOS 6.0.1',
        os_variant: 'prod',
        supervisor_version: '17.0.0',
        ip_address: '10.0.0.2 192.168.1.9',
        mac_address: 'aa:bb:cc:dd:ee:ff',
        api_port: 48484,
        api_secret: 'secret',
        provisioning_progress: null,
        cpu_id: 'cpu-1',
        is_undervolted: false,
        memory_usage: 512,
        memory_total: 4096,
        cpu_temp: 47.6,
        something_new: { ignored: true },
        apps: {
          [fleet.uuid]: {
            release_uuid: oldCommit,
            releases: {
              [oldCommit]: {
                update_status: 'downloading',
                services: {
                  main: { image: 'x', status: 'Running' },
                  cache: { image: 'y', status: 'Running' },
                },
              },
              [newCommit]: {
                update_status: 'downloading',
                services: {
                  main: { image: 'x', status: 'Downloading', download_progress: 42 },
                  cache: { image: 'y', status: 'Running' },
                  unknown_service: { image: 'z', status: 'Running' },
                },
              },
            },
          },
        },
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toBe('');
    expect(await deviceRow()).toMatchObject({
      status: 'Idle',
      os_version: 'balenaOS 6.0.1',
      supervisor_version: '17.0.0',
      ip_address: '10.0.0.2 192.168.1.9',
      api_port: 48484,
      api_secret: 'secret',
      cpu_id: 'cpu-1',
      memory_usage: 512,
      cpu_temp: 48,
      is_running__release: oldRelease,
      update_status: 'downloading',
      last_update_status_event: clock,
      last_contact_at: clock,
    });
    // The shared image is one install, attributed to the target release.
    expect(await installs()).toEqual(
      [
        { image: oldMainImage, status: 'Running', progress: null, release: oldRelease },
        { image: newMainImage, status: 'Downloading', progress: 42, release: newRelease },
        { image: sharedImage, status: 'Running', progress: null, release: newRelease },
      ].sort((a, b) => a.image - b.image),
    );
    const services = await db.query<{ n: number }>(
      'SELECT count(*) AS n FROM "service_install" WHERE "device" = $1',
      [device.id],
    );
    expect(services.rows).toEqual([{ n: 2 }]);
  });

  it("stores a Flotilla agent's profile, refuses a malformed one, keeps it when a report has none", async () => {
    const profile = {
      manages_containers: false,
      architecture: 'amd64',
      board: null,
      honoured_config: ['BALENA_SUPERVISOR_POLL_INTERVAL'],
    };
    expect((await report({ [device.uuid]: { agent_profile: profile } })).statusCode).toBe(200);
    expect((await deviceRow()).agent_profile).toEqual(profile);
    const bad = await report({
      [device.uuid]: { agent_profile: { ...profile, manages_containers: 'no' } },
    });
    expect(bad.statusCode).toBe(400);
    expect((await report({ [device.uuid]: { status: 'Idle' } })).statusCode).toBe(200);
    expect((await deviceRow()).agent_profile).toEqual(profile);
    // Another device's key cannot write it for this one.
    const foreign = await report({ [device.uuid]: { agent_profile: profile } }, otherKey);
    expect(foreign.statusCode).toBe(401);
  });

  it('replaces installs, moves the running release, and dates update status changes only', async () => {
    const before = await deviceRow();
    clock = new Date(clock.getTime() + 30_000);
    const done = {
      [device.uuid]: {
        apps: {
          [fleet.uuid]: {
            release_uuid: newCommit,
            releases: {
              [newCommit]: {
                update_status: 'done',
                services: {
                  main: { image: 'x', status: 'Running', download_progress: null },
                  cache: { image: 'y', status: 'Running' },
                },
              },
            },
          },
        },
      },
    };
    expect((await report(done)).statusCode).toBe(200);
    expect(await installs()).toEqual(
      [
        { image: newMainImage, status: 'Running', progress: null, release: newRelease },
        { image: sharedImage, status: 'Running', progress: null, release: newRelease },
      ].sort((a, b) => a.image - b.image),
    );
    const after = await deviceRow();
    expect(after).toMatchObject({
      is_running__release: newRelease,
      update_status: 'done',
      last_update_status_event: clock,
      // Not reported again: kept.
      os_version: before.os_version,
    });
    const firstEvent = clock;
    clock = new Date(clock.getTime() + 30_000);
    expect((await report(done)).statusCode).toBe(200);
    expect((await deviceRow()).last_update_status_event).toEqual(firstEvent);
    // A report without apps leaves the installs alone.
    expect((await report({ [device.uuid]: { status: 'Idle' } })).statusCode).toBe(200);
    expect(await installs()).toHaveLength(2);
  });

  it('keeps metrics at most once a minute and the rest of the report always', async () => {
    clock = new Date(clock.getTime() + 120_000);
    await report({ [device.uuid]: { memory_usage: 100, cpu_usage: 10, status: 'A' } });
    expect(await deviceRow()).toMatchObject({ memory_usage: 100, cpu_usage: 10, status: 'A' });
    clock = new Date(clock.getTime() + 20_000);
    await report({
      [device.uuid]: { memory_usage: 200, cpu_usage: 20, status: 'B', is_undervolted: true },
    });
    expect(await deviceRow()).toMatchObject({
      memory_usage: 100,
      cpu_usage: 10,
      status: 'B',
      is_undervolted: true,
    });
    clock = new Date(clock.getTime() + 41_000);
    await report({ [device.uuid]: { memory_usage: 300 } });
    expect(await deviceRow()).toMatchObject({ memory_usage: 300, cpu_usage: 10 });
  });

  it('writes nothing at all for a report that changes nothing', async () => {
    const steady = {
      [device.uuid]: {
        status: 'Idle',
        ip_address: '10.0.0.7',
        cpu_id: 'cpu-1',
        memory_usage: 100,
        update_status: 'done',
        apps: {
          [fleet.uuid]: {
            release_uuid: newCommit,
            releases: {
              [newCommit]: {
                update_status: 'done',
                services: {
                  main: { image: 'x', status: 'Running' },
                  cache: { image: 'y', status: 'Running' },
                },
              },
            },
          },
        },
      },
    };
    clock = new Date(clock.getTime() + 120_000);
    expect((await report(steady)).statusCode).toBe(200);
    // Row versions: a rewritten row gets a new xmin even when its values stay the same, and a
    // row locked for an update (ON CONFLICT DO UPDATE locks even when it changes nothing) an xmax.
    const versions = async () =>
      (
        await db.query<{ v: string }>(
          `SELECT 'device' AS "t", "xmin"::text || '/' || "xmax"::text AS "v" FROM "device" WHERE "id" = $1
           UNION ALL SELECT 'image', "xmin"::text || '/' || "xmax"::text FROM "image_install" WHERE "device" = $1
           UNION ALL SELECT 'service', "xmin"::text || '/' || "xmax"::text FROM "service_install" WHERE "device" = $1
           ORDER BY 1, 2`,
          [device.id],
        )
      ).rows;
    const before = await versions();
    expect(before.length).toBe(5);
    // Within the contact and metrics intervals: the same report again writes no row.
    clock = new Date(clock.getTime() + 5_000);
    expect((await report(steady)).statusCode).toBe(200);
    expect(await versions()).toEqual(before);
  });

  it('refuses another device’s uuid (401) and bad types (400), writing nothing', async () => {
    const before = await deviceRow(other.id);
    const foreign = await report({ [other.uuid]: { status: 'hijacked' } });
    expect(foreign.statusCode).toBe(401);
    const mixed = await report({
      [device.uuid]: { status: 'mine' },
      [other.uuid]: { status: 'hijacked' },
    });
    expect(mixed.statusCode).toBe(401);
    expect(await deviceRow(other.id)).toEqual(before);
    expect((await deviceRow()).status).not.toBe('mine');

    const bad = await report({ [device.uuid]: { memory_usage: 'lots' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/memory_usage/);
    expect((await report({ [device.uuid]: { update_status: 'exploded' } })).statusCode).toBe(400);
    // Users never report state.
    const user = await fx.createUser(db, 'reporter-user');
    await fx.addFleetMember(db, user.userId, fleet.id, 'developer');
    const userKey = await createApiKey(db, user.actorId, { name: 'user' });
    expect((await report({ [device.uuid]: { status: 'x' } }, userKey)).statusCode).toBe(401);
    // The other device can still report for itself.
    expect((await report({ [other.uuid]: { status: 'fine' } }, otherKey)).statusCode).toBe(200);
  });

  it('upserts reported tags (PATCH /device/v3/tags) for its own device only', async () => {
    const patch = (body: unknown, key = deviceKey) =>
      app.inject({
        method: 'PATCH',
        url: '/device/v3/tags',
        headers: { authorization: `Bearer ${key}` },
        payload: body as Record<string, unknown>,
      });
    await fx.tagDevice(db, device.id, 'keep', 'me');
    expect((await patch({ [device.uuid]: { room: 'kitchen', keep: 'changed' } })).statusCode).toBe(
      200,
    );
    expect((await patch({ [device.uuid]: { room: 'attic' } })).statusCode).toBe(200);
    expect((await patch({ [other.uuid]: { room: 'x' } })).statusCode).toBe(401);
    const { rows } = await db.query<{ tag_key: string; value: string }>(
      'SELECT "tag_key", "value" FROM "device_tag" WHERE "device" = $1 ORDER BY "tag_key"',
      [device.id],
    );
    expect(rows).toEqual([
      { tag_key: 'keep', value: 'changed' },
      { tag_key: 'room', value: 'attic' },
    ]);
  });
});
