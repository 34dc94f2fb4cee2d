import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable, SqlValue } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import type { AppContext } from '../../app-context.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { registerDeviceRegistration } from '../devices/register-device.js';
import { registerDeviceState } from './register-device-state.js';

const one = async (db: Queryable, sql: string, params: SqlValue[]): Promise<number> => {
  const { rows } = await db.query<{ id: number }>(sql, params);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`nothing returned: ${sql}`);
  return id;
};

// A service of the fleet with one image in the release.
const addService = async (db: Queryable, fleetId: number, releaseId: number, name: string) => {
  const serviceId = await one(
    db,
    'INSERT INTO "service" ("application", "service_name") VALUES ($1, $2) RETURNING "id"',
    [fleetId, name],
  );
  const imageId = await one(
    db,
    `INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "status", "content_hash")
     VALUES ($1, $2, 'success', $3) RETURNING "id"`,
    [serviceId, `registry.example/v2/${name}`, `sha256:${name}`],
  );
  const releaseImageId = await one(
    db,
    'INSERT INTO "release_image" ("image", "is_part_of__release") VALUES ($1, $2) RETURNING "id"',
    [imageId, releaseId],
  );
  return { serviceId, imageId, releaseImageId };
};

describe('target state: GET /device/v3/:uuid/state and friends', () => {
  let db: Database;
  let app: FastifyInstance;
  let ctx: AppContext;
  let fleet: fx.FleetFixture;
  let otherFleet: fx.FleetFixture;
  let provisioningKey: string;
  let memberKey: string;
  let outsiderKey: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    ctx = createTestContext(db);
    app = await createTestApp(ctx, registerDeviceRegistration, registerDeviceState);
    const org = await fx.createOrganization(db, 'Protocol');
    fleet = await fx.createFleet(db, org, 'Sensors');
    otherFleet = await fx.createFleet(db, org, 'Others');
    provisioningKey = await createApiKey(db, fleet.actorId, { name: 'provisioning' });
    const member = await fx.createUser(db, 'member');
    await fx.addFleetMember(db, member.userId, fleet.id, 'observer');
    memberKey = await createApiKey(db, member.actorId, { name: 'member key' });
    const outsider = await fx.createUser(db, 'outsider');
    outsiderKey = await createApiKey(db, outsider.actorId, { name: 'outsider key' });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const get = (url: string, key: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}`, ...headers } });

  const registerDevice = async (fleetId = fleet.id, key = provisioningKey) => {
    const uuid = randomBytes(16).toString('hex');
    const response = await app.inject({
      method: 'POST',
      url: '/device/register',
      headers: { authorization: `Bearer ${key}` },
      payload: { application: fleetId, uuid, device_type: 'raspberrypi4-64' },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: number; uuid: string; api_key: string }>();
  };

  it('serves a freshly registered device an empty target, and counts the poll as contact', async () => {
    const device = await registerDevice();
    const response = await get(`/device/v3/${device.uuid}/state`, device.api_key);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(response.json()).toEqual({
      [device.uuid]: {
        name: device.uuid.slice(0, 7),
        config: {},
        apps: {
          [fleet.uuid]: {
            id: fleet.id,
            name: 'Sensors',
            class: 'fleet',
            is_host: false,
            releases: {},
          },
        },
      },
    });
    await ctx.contacts.flush();
    const contact = await db.query<{ seen: boolean }>(
      'SELECT "last_contact_at" IS NOT NULL AS "seen" FROM "device" WHERE "id" = $1',
      [device.id],
    );
    expect(contact.rows).toEqual([{ seen: true }]);
  });

  it('builds services, merged environment, labels and config of the target release', async () => {
    const device = await registerDevice();
    const commit = randomBytes(16).toString('hex');
    const releaseId = await fx.createRelease(db, fleet.id, commit);
    await db.query(`UPDATE "release" SET "composition" = $2 WHERE "id" = $1`, [
      releaseId,
      JSON.stringify({
        services: {
          main: {
            restart: 'always',
            privileged: true,
            devices: ['/dev/ttyUSB0:/dev/ttyUSB0'],
            healthcheck: { test: ['CMD', 'true'], interval: '5s' },
            networks: { backend: { aliases: ['api'] } },
          },
        },
        volumes: { data: {} },
        networks: { backend: {} },
      }),
    ]);
    const main = await addService(db, fleet.id, releaseId, 'main');
    const sidecar = await addService(db, fleet.id, releaseId, 'sidecar');
    await db.query('UPDATE "application" SET "should_be_running__release" = $2 WHERE "id" = $1', [
      fleet.id,
      releaseId,
    ]);
    for (const [name, value] of [
      ['A', 'fleet'],
      ['B', 'fleet'],
      ['C', 'fleet'],
      ['D', 'fleet'],
    ]) {
      await fx.setFleetEnvVar(db, fleet.id, name ?? '', value ?? '');
    }
    await db.query(
      `INSERT INTO "image_environment_variable" ("release_image", "name", "value") VALUES ($1, 'A', 'image'), ($1, 'IMG', 'image')`,
      [main.releaseImageId],
    );
    await db.query(
      `INSERT INTO "service_environment_variable" ("service", "name", "value") VALUES ($1, 'B', 'service'), ($1, 'C', 'service')`,
      [main.serviceId],
    );
    await db.query(
      `INSERT INTO "device_environment_variable" ("device", "name", "value") VALUES ($1, 'C', 'device'), ($1, 'D', 'device')`,
      [device.id],
    );
    const install = await one(
      db,
      'INSERT INTO "service_install" ("device", "installs__service") VALUES ($1, $2) RETURNING "id"',
      [device.id, main.serviceId],
    );
    await db.query(
      `INSERT INTO "device_service_environment_variable" ("service_install", "name", "value") VALUES ($1, 'D', 'device-service')`,
      [install],
    );
    await db.query(
      `INSERT INTO "application_config_variable" ("application", "name", "value")
       VALUES ($1, 'BALENA_SUPERVISOR_POLL_INTERVAL', '1000'), ($1, 'X', 'fleet')`,
      [fleet.id],
    );
    await db.query(
      `INSERT INTO "device_config_variable" ("device", "name", "value") VALUES ($1, 'X', 'device'), ($1, 'Y', 'device')`,
      [device.id],
    );
    await db.query(
      `INSERT INTO "service_label" ("service", "label_name", "value") VALUES ($1, 'shared', 'service'), ($1, 'io.balena.features.supervisor-api', '1')`,
      [main.serviceId],
    );
    await db.query(
      `INSERT INTO "image_label" ("release_image", "label_name", "value") VALUES ($1, 'shared', 'image'), ($1, 'built', 'yes')`,
      [main.releaseImageId],
    );

    const response = await get(`/device/v3/${device.uuid}/state`, device.api_key);
    expect(response.statusCode, response.body).toBe(200);
    const state =
      response.json<Record<string, { config: unknown; apps: Record<string, unknown> }>>();
    // Device config wins over the fleet's; the poll interval is raised to the server minimum.
    expect(state[device.uuid]?.config).toEqual({
      BALENA_SUPERVISOR_POLL_INTERVAL: '10000',
      X: 'device',
      Y: 'device',
    });
    expect(state[device.uuid]?.apps[fleet.uuid]).toEqual({
      id: fleet.id,
      name: 'Sensors',
      class: 'fleet',
      is_host: false,
      releases: {
        [commit]: {
          id: releaseId,
          services: {
            main: {
              id: main.serviceId,
              image_id: main.imageId,
              image: 'registry.example/v2/main@sha256:main',
              // image < fleet < fleet service < device < device service
              environment: {
                IMG: 'image',
                A: 'fleet',
                B: 'service',
                C: 'device',
                D: 'device-service',
              },
              labels: { built: 'yes', shared: 'service', 'io.balena.features.supervisor-api': '1' },
              // The compose file's service as it was deployed: the device reads what it runs.
              composition: {
                restart: 'always',
                privileged: true,
                devices: ['/dev/ttyUSB0:/dev/ttyUSB0'],
                healthcheck: { test: ['CMD', 'true'], interval: '5s' },
                networks: { backend: { aliases: ['api'] } },
              },
            },
            sidecar: {
              id: sidecar.serviceId,
              image_id: sidecar.imageId,
              image: 'registry.example/v2/sidecar@sha256:sidecar',
              environment: { A: 'fleet', B: 'fleet', C: 'device', D: 'device' },
              labels: {},
            },
          },
          volumes: { data: {} },
          networks: { backend: {} },
        },
      },
    });

    // The v2 shape the SDK's getSupervisorTargetState reads, for a user who may see the device.
    const v2 = await get(`/device/v2/${device.uuid}/state`, memberKey);
    expect(v2.statusCode, v2.body).toBe(200);
    expect(v2.json()).toMatchObject({
      local: {
        name: device.uuid.slice(0, 7),
        config: { X: 'device' },
        apps: {
          [String(fleet.id)]: {
            name: 'Sensors',
            commit,
            releaseId,
            services: {
              [String(main.serviceId)]: {
                serviceName: 'main',
                imageId: main.imageId,
                image: 'registry.example/v2/main@sha256:main',
                running: true,
                restart: 'always',
                environment: { D: 'device-service' },
              },
            },
            volumes: { data: {} },
          },
        },
      },
      dependent: { apps: {}, devices: {} },
    });

    // The fleet-level target has no device variables; ?releaseUuid= picks another release.
    const fleetState = await get(`/device/v3/fleet/${fleet.uuid}/state/?releaseUuid=`, memberKey);
    expect(fleetState.statusCode, fleetState.body).toBe(200);
    const fleetBody = fleetState.json<
      Record<
        string,
        {
          name: string;
          apps: Record<
            string,
            { releases: Record<string, { services: Record<string, { environment: unknown }> }> }
          >;
        }
      >
    >();
    expect(fleetBody[fleet.uuid]?.name).toBe('Sensors');
    expect(
      fleetBody[fleet.uuid]?.apps[fleet.uuid]?.releases[commit]?.services.main?.environment,
    ).toEqual({ IMG: 'image', A: 'fleet', B: 'service', C: 'service', D: 'fleet' });
    const older = randomBytes(16).toString('hex');
    await fx.createRelease(db, fleet.id, older);
    const pinnedToOlder = await get(
      `/device/v3/fleet/${fleet.uuid}/state?releaseUuid=${older}`,
      memberKey,
    );
    expect(
      Object.keys(
        pinnedToOlder.json<Record<string, { apps: Record<string, { releases: object }> }>>()[
          fleet.uuid
        ]?.apps[fleet.uuid]?.releases ?? {},
      ),
    ).toEqual([older]);
    expect((await get(`/device/v3/fleet/${fleet.uuid}/state`, outsiderKey)).statusCode).toBe(401);
  });

  it('answers 304 to a matching If-None-Match until the target changes', async () => {
    const device = await registerDevice();
    const first = await get(`/device/v3/${device.uuid}/state`, device.api_key);
    const etag = first.headers.etag;
    expect(typeof etag).toBe('string');
    const unchanged = await get(`/device/v3/${device.uuid}/state`, device.api_key, {
      'if-none-match': String(etag),
    });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    // Weak and listed forms match too.
    const listed = await get(`/device/v3/${device.uuid}/state`, device.api_key, {
      'if-none-match': `"other", W/${String(etag)}`,
    });
    expect(listed.statusCode).toBe(304);
    expect(listed.headers.etag).toBe(etag);
    // A 304 from memory is a contact too, written with the next flush.
    await ctx.notifications.sync();
    await get(`/device/v3/${device.uuid}/state`, device.api_key);
    await ctx.contacts.flush();
    // Forgotten on both sides: the process skips contacts within 10 s of one it stored.
    await db.query('UPDATE "device" SET "last_contact_at" = NULL WHERE "id" = $1', [device.id]);
    ctx.contacts.forget(device.id);
    const remembered = await get(`/device/v3/${device.uuid}/state`, device.api_key, {
      'if-none-match': String(etag),
    });
    expect(remembered.statusCode).toBe(304);
    await ctx.contacts.flush();
    const seen = await db.query<{ seen: boolean }>(
      'SELECT "last_contact_at" IS NOT NULL AS "seen" FROM "device" WHERE "id" = $1',
      [device.id],
    );
    expect(seen.rows).toEqual([{ seen: true }]);
    await db.query(
      `INSERT INTO "device_environment_variable" ("device", "name", "value") VALUES ($1, 'NEW', '1')`,
      [device.id],
    );
    // Every process learns of the change from its notification (target-state-cache.ts).
    await ctx.notifications.sync();
    const changed = await get(`/device/v3/${device.uuid}/state`, device.api_key, {
      'if-none-match': String(etag),
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('serves the pinned release over the fleet target', async () => {
    const device = await registerDevice();
    const pinned = randomBytes(16).toString('hex');
    const pinnedId = await fx.createRelease(db, fleet.id, pinned);
    await db.query('UPDATE "device" SET "is_pinned_on__release" = $2 WHERE "id" = $1', [
      device.id,
      pinnedId,
    ]);
    const response = await get(`/device/v3/${device.uuid}/state`, device.api_key);
    const body = response.json<Record<string, { apps: Record<string, { releases: object }> }>>();
    expect(Object.keys(body[device.uuid]?.apps[fleet.uuid]?.releases ?? {})).toEqual([pinned]);
  });

  it('serves a deactivated device no release and says it is inactive, until active again', async () => {
    const device = await registerDevice();
    const pinned = randomBytes(16).toString('hex');
    const pinnedId = await fx.createRelease(db, fleet.id, pinned);
    await db.query('UPDATE "device" SET "is_pinned_on__release" = $2 WHERE "id" = $1', [
      device.id,
      pinnedId,
    ]);
    type Entry = { is_active?: boolean; apps: Record<string, { releases: object }> };
    const entry = async (): Promise<{ releases: string[]; flag: boolean | undefined }> => {
      const response = await get(`/device/v3/${device.uuid}/state`, device.api_key);
      const body = response.json<Record<string, Entry>>()[device.uuid];
      return {
        releases: Object.keys(body?.apps[fleet.uuid]?.releases ?? {}),
        flag: body?.is_active,
      };
    };
    // Active devices' bodies carry no flag (balena's shape, unchanged).
    expect(await entry()).toEqual({ releases: [pinned], flag: undefined });
    await db.query('UPDATE "device" SET "is_active" = false WHERE "id" = $1', [device.id]);
    await ctx.notifications.sync();
    expect(await entry()).toEqual({ releases: [], flag: false });
    await db.query('UPDATE "device" SET "is_active" = true WHERE "id" = $1', [device.id]);
    await ctx.notifications.sync();
    expect(await entry()).toEqual({ releases: [pinned], flag: undefined });
  });

  it('lets a device read only its own target, and users only devices they may see', async () => {
    const device = await registerDevice();
    const other = await registerDevice(
      otherFleet.id,
      await createApiKey(db, otherFleet.actorId, {}),
    );
    expect((await get(`/device/v3/${other.uuid}/state`, device.api_key)).statusCode).toBe(401);
    expect((await get(`/device/v2/${other.uuid}/state`, device.api_key)).statusCode).toBe(401);
    const unknown = randomBytes(16).toString('hex');
    expect((await get(`/device/v3/${unknown}/state`, device.api_key)).statusCode).toBe(401);
    expect((await get(`/device/v3/${device.uuid}/state`, outsiderKey)).statusCode).toBe(401);
    expect((await get(`/device/v3/${other.uuid}/state`, memberKey)).statusCode).toBe(401);
    const asMember = await get(`/device/v3/${device.uuid}/state`, memberKey);
    expect(asMember.statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: `/device/v3/${device.uuid}/state` })).statusCode,
    ).toBe(401);
    // A user's read is not the device's heartbeat.
    await ctx.contacts.flush();
    const { rows } = await db.query<{ seen: boolean }>(
      'SELECT "last_contact_at" IS NOT NULL AS "seen" FROM "device" WHERE "id" = $1',
      [device.id],
    );
    expect(rows).toEqual([{ seen: false }]);
  });
});
