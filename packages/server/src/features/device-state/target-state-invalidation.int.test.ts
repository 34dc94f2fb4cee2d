import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database, Queryable, SqlValue } from '../../infra/db/database.js';
import { createNotificationFeed } from '../../infra/db/notification-feed.js';
import { registerODataRoutes } from '../../infra/odata/register-odata-routes.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { registerDeviceState } from './register-device-state.js';
import { deviceTargetStateV3, etagOf } from './target-state-body.js';
import { loadDeviceTarget } from './target-state-query.js';

const one = async (db: Queryable, sql: string, params: SqlValue[] = []): Promise<number> => {
  const { rows } = await db.query<{ id: number }>(sql, params);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`nothing returned: ${sql}`);
  return id;
};

// The database as a process sees it, counting what it reads besides the caller's key (the actor
// lookup, which the actor cache takes over).
const countingDatabase = (db: Database): { db: Database; reads: () => number } => {
  let reads = 0;
  const counted: Database = {
    ...db,
    query: (sql, params) => {
      if (!sql.includes('"api_key"')) reads += 1;
      return db.query(sql, params);
    },
  };
  return { db: counted, reads: () => reads };
};

const waitFor = async (what: string, check: () => boolean): Promise<void> => {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

type Process = { name: string; app: FastifyInstance; ctx: AppContext; reads: () => number };

// Two server processes on one database, each with its own target-state cache and LISTEN
// connection. Every kind of change a target is built from is made (straight in the database, or
// through process A's API); the next poll on either process must answer what a fresh build
// answers: 200 with the new body when it changed, 304 when it did not.
describe('target-state cache invalidation across processes', () => {
  let db: Database;
  let processes: Process[];
  let fleet: fx.FleetFixture;
  let otherFleet: fx.FleetFixture;
  let device: fx.DeviceFixture;
  let deviceKey: string;
  let adminKey: string;
  let target: number;
  let otherRelease: number;
  let service: number;
  let image: number;
  let releaseImage: number;
  let serviceInstall: number;

  const addService = async (fleetId: number, releaseId: number, name: string) => {
    const serviceId = await one(
      db,
      'INSERT INTO "service" ("application", "service_name") VALUES ($1, $2) RETURNING "id"',
      [fleetId, name],
    );
    const imageId = await one(
      db,
      `INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "status", "content_hash")
       VALUES ($1, $2, 'success', 'sha256:1') RETURNING "id"`,
      [serviceId, `registry.example/${name}`],
    );
    const releaseImageId = await one(
      db,
      'INSERT INTO "release_image" ("image", "is_part_of__release") VALUES ($1, $2) RETURNING "id"',
      [imageId, releaseId],
    );
    return { serviceId, imageId, releaseImageId };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    processes = [];
    for (const name of ['A', 'B']) {
      const counting = countingDatabase(db);
      // Reconnecting after 3 s leaves the 'down' test a window with nobody listening.
      const notifications = createNotificationFeed(counting.db, { reconnectDelayMs: 3000 });
      const ctx = createTestContext(counting.db, { notifications });
      const app = await createTestApp(ctx, registerDeviceState, registerODataRoutes);
      processes.push({ name, app, ctx, reads: counting.reads });
    }
    const org = await fx.createOrganization(db, 'Invalidation');
    fleet = await fx.createFleet(db, org, 'Watched');
    otherFleet = await fx.createFleet(db, org, 'Elsewhere');
    device = await fx.createDevice(db, fleet.id, 'watched');
    deviceKey = await createApiKey(db, device.actorId, { name: 'device' });
    const admin = await fx.createUser(db, 'invalidation-admin');
    await fx.addOrganizationMember(db, admin.userId, org, 'administrator');
    adminKey = await createApiKey(db, admin.actorId, { name: 'admin' });
    target = await fx.createRelease(db, fleet.id, randomBytes(16).toString('hex'));
    otherRelease = await fx.createRelease(db, fleet.id, randomBytes(16).toString('hex'));
    const main = await addService(fleet.id, target, 'main');
    service = main.serviceId;
    image = main.imageId;
    releaseImage = main.releaseImageId;
    await addService(fleet.id, otherRelease, 'other');
    serviceInstall = await one(
      db,
      'INSERT INTO "service_install" ("device", "installs__service") VALUES ($1, $2) RETURNING "id"',
      [device.id, service],
    );
    await db.query('UPDATE "application" SET "should_be_running__release" = $2 WHERE "id" = $1', [
      fleet.id,
      target,
    ]);
  });
  afterAll(async () => {
    for (const { app } of processes ?? []) await app.close();
    await db?.close();
  });

  const poll = (process: Process, etag?: string) =>
    process.app.inject({
      method: 'GET',
      url: `/device/v3/${device.uuid}/state`,
      headers: {
        authorization: `Bearer ${deviceKey}`,
        ...(etag === undefined ? {} : { 'if-none-match': etag }),
      },
    });

  // What a fresh build answers now.
  const fresh = async (): Promise<{ body: unknown; etag: string }> => {
    const text = JSON.stringify(deviceTargetStateV3(await loadDeviceTarget(db, device.id)));
    return { body: JSON.parse(text), etag: etagOf(text) };
  };

  // Both processes hold the current ETag and answer 304 from memory (no read at all).
  const primeBoth = async (): Promise<string> => {
    const { etag } = await fresh();
    for (const process of processes) {
      const first = await poll(process, etag);
      expect([200, 304], process.name).toContain(first.statusCode);
      const before = process.reads();
      const cached = await poll(process, etag);
      expect(cached.statusCode, `${process.name}: ${cached.body}`).toBe(304);
      expect(process.reads() - before, `${process.name} read the database`).toBe(0);
    }
    return etag;
  };

  const syncBoth = async (): Promise<void> => {
    for (const process of processes) await process.ctx.notifications.sync();
  };

  // The poll after a change answers what a fresh build answers, on both processes.
  const expectCurrent = async (
    name: string,
    previous: string,
    changesBody: boolean,
  ): Promise<void> => {
    const now = await fresh();
    expect(now.etag !== previous, `${name}: whether the body changed`).toBe(changesBody);
    for (const process of processes) {
      const response = await poll(process, previous);
      if (changesBody) {
        expect(response.statusCode, `${name} on ${process.name}`).toBe(200);
        expect(response.headers.etag).toBe(now.etag);
        expect(response.json()).toEqual(now.body);
      } else {
        expect(response.statusCode, `${name} on ${process.name}`).toBe(304);
      }
    }
  };

  const sql =
    (text: string, ...params: SqlValue[]) =>
    async () => {
      await db.query(text, params);
    };

  type Change = { name: string; apply: () => Promise<void>; changesBody?: boolean };
  const changes = (): Change[] => [
    {
      name: 'device name',
      apply: sql(`UPDATE "device" SET "device_name" = 'renamed' WHERE "id" = $1`, device.id),
    },
    {
      name: 'device name, through process A’s API',
      apply: async () => {
        const response = await processes[0]?.app.inject({
          method: 'PATCH',
          url: `/v7/device(${device.id})`,
          headers: { authorization: `Bearer ${adminKey}` },
          payload: { device_name: 'renamed-through-a' },
        });
        expect(response?.statusCode, response?.body).toBe(200);
      },
    },
    {
      name: 'device pinned',
      apply: sql(
        `UPDATE "device" SET "is_pinned_on__release" = $2 WHERE "id" = $1`,
        device.id,
        otherRelease,
      ),
    },
    {
      name: 'device unpinned',
      apply: sql(`UPDATE "device" SET "is_pinned_on__release" = NULL WHERE "id" = $1`, device.id),
    },
    {
      name: 'device deactivated',
      changesBody: false,
      apply: sql(`UPDATE "device" SET "is_active" = false WHERE "id" = $1`, device.id),
    },
    {
      name: 'device moved to another fleet',
      apply: sql(
        `UPDATE "device" SET "belongs_to__application" = $2 WHERE "id" = $1`,
        device.id,
        otherFleet.id,
      ),
    },
    {
      name: 'device moved back',
      apply: sql(
        `UPDATE "device" SET "belongs_to__application" = $2 WHERE "id" = $1`,
        device.id,
        fleet.id,
      ),
    },
    {
      name: 'fleet renamed',
      apply: sql(`UPDATE "application" SET "app_name" = 'Renamed' WHERE "id" = $1`, fleet.id),
    },
    {
      name: 'fleet target release',
      apply: sql(
        `UPDATE "application" SET "should_be_running__release" = $2 WHERE "id" = $1`,
        fleet.id,
        otherRelease,
      ),
    },
    {
      name: 'fleet target release back',
      apply: sql(
        `UPDATE "application" SET "should_be_running__release" = $2 WHERE "id" = $1`,
        fleet.id,
        target,
      ),
    },
    {
      name: 'fleet class',
      apply: sql(`UPDATE "application" SET "is_of__class" = 'app' WHERE "id" = $1`, fleet.id),
    },
    {
      name: 'fleet config variable added',
      apply: sql(
        `INSERT INTO "application_config_variable" ("application", "name", "value") VALUES ($1, 'RESIN_X', '1')`,
        fleet.id,
      ),
    },
    {
      name: 'fleet config variable changed',
      apply: sql(
        `UPDATE "application_config_variable" SET "value" = '2' WHERE "application" = $1`,
        fleet.id,
      ),
    },
    {
      name: 'fleet config variable removed',
      apply: sql(`DELETE FROM "application_config_variable" WHERE "application" = $1`, fleet.id),
    },
    {
      name: 'fleet env variable added',
      apply: sql(
        `INSERT INTO "application_environment_variable" ("application", "name", "value") VALUES ($1, 'E', '1')`,
        fleet.id,
      ),
    },
    {
      name: 'fleet env variable changed',
      apply: sql(
        `UPDATE "application_environment_variable" SET "value" = '2' WHERE "application" = $1`,
        fleet.id,
      ),
    },
    {
      name: 'fleet env variable removed',
      apply: sql(
        `DELETE FROM "application_environment_variable" WHERE "application" = $1`,
        fleet.id,
      ),
    },
    {
      name: 'device config variable added',
      apply: sql(
        `INSERT INTO "device_config_variable" ("device", "name", "value") VALUES ($1, 'RESIN_Y', '1')`,
        device.id,
      ),
    },
    {
      name: 'device config variable changed',
      apply: sql(
        `UPDATE "device_config_variable" SET "value" = '2' WHERE "device" = $1`,
        device.id,
      ),
    },
    {
      name: 'device config variable removed',
      apply: sql(`DELETE FROM "device_config_variable" WHERE "device" = $1`, device.id),
    },
    {
      name: 'device env variable added',
      apply: sql(
        `INSERT INTO "device_environment_variable" ("device", "name", "value") VALUES ($1, 'D', '1')`,
        device.id,
      ),
    },
    {
      name: 'device env variable changed',
      apply: sql(
        `UPDATE "device_environment_variable" SET "value" = '2' WHERE "device" = $1`,
        device.id,
      ),
    },
    {
      name: 'device env variable removed',
      apply: sql(`DELETE FROM "device_environment_variable" WHERE "device" = $1`, device.id),
    },
    {
      name: 'service env variable added',
      apply: sql(
        `INSERT INTO "service_environment_variable" ("service", "name", "value") VALUES ($1, 'S', '1')`,
        service,
      ),
    },
    {
      name: 'service env variable changed',
      apply: sql(
        `UPDATE "service_environment_variable" SET "value" = '2' WHERE "service" = $1`,
        service,
      ),
    },
    {
      name: 'service env variable removed',
      apply: sql(`DELETE FROM "service_environment_variable" WHERE "service" = $1`, service),
    },
    {
      name: 'service label added',
      apply: sql(
        `INSERT INTO "service_label" ("service", "label_name", "value") VALUES ($1, 'l', '1')`,
        service,
      ),
    },
    {
      name: 'service label changed',
      apply: sql(`UPDATE "service_label" SET "value" = '2' WHERE "service" = $1`, service),
    },
    {
      name: 'device service variable added',
      apply: sql(
        `INSERT INTO "device_service_environment_variable" ("service_install", "name", "value") VALUES ($1, 'DS', '1')`,
        serviceInstall,
      ),
    },
    {
      name: 'device service variable changed',
      apply: sql(
        `UPDATE "device_service_environment_variable" SET "value" = '2' WHERE "service_install" = $1`,
        serviceInstall,
      ),
    },
    {
      name: 'device service variable removed',
      apply: sql(
        `DELETE FROM "device_service_environment_variable" WHERE "service_install" = $1`,
        serviceInstall,
      ),
    },
    {
      name: 'device service variable added again',
      apply: sql(
        `INSERT INTO "device_service_environment_variable" ("service_install", "name", "value") VALUES ($1, 'DS', '3')`,
        serviceInstall,
      ),
    },
    {
      name: 'service install (with its variables) removed',
      apply: sql('DELETE FROM "service_install" WHERE "id" = $1', serviceInstall),
    },
    {
      name: 'image env variable added',
      apply: sql(
        `INSERT INTO "image_environment_variable" ("release_image", "name", "value") VALUES ($1, 'I', '1')`,
        releaseImage,
      ),
    },
    {
      name: 'image env variable changed',
      apply: sql(
        `UPDATE "image_environment_variable" SET "value" = '2' WHERE "release_image" = $1`,
        releaseImage,
      ),
    },
    {
      name: 'image label added',
      apply: sql(
        `INSERT INTO "image_label" ("release_image", "label_name", "value") VALUES ($1, 'il', '1')`,
        releaseImage,
      ),
    },
    {
      name: 'image label removed',
      apply: sql(`DELETE FROM "image_label" WHERE "release_image" = $1`, releaseImage),
    },
    {
      name: 'image content hash',
      apply: sql(`UPDATE "image" SET "content_hash" = 'sha256:2' WHERE "id" = $1`, image),
    },
    {
      name: 'image contract',
      apply: sql(
        `UPDATE "image" SET "contract" = '{"type":"sw.container"}' WHERE "id" = $1`,
        image,
      ),
    },
    {
      name: 'service renamed',
      apply: sql(`UPDATE "service" SET "service_name" = 'primary' WHERE "id" = $1`, service),
    },
    {
      name: 'release composition',
      apply: sql(
        `UPDATE "release" SET "composition" = '{"volumes":{"data":{}}}' WHERE "id" = $1`,
        target,
      ),
    },
    {
      name: 'release commit',
      apply: sql(
        `UPDATE "release" SET "commit" = $2 WHERE "id" = $1`,
        target,
        randomBytes(16).toString('hex'),
      ),
    },
    {
      name: 'image added to the release',
      apply: async () => {
        await addService(fleet.id, target, 'sidecar');
      },
    },
    {
      name: 'image removed from the release',
      apply: sql(`DELETE FROM "release_image" WHERE "id" = $1`, releaseImage),
    },
    { name: 'target release deleted', apply: sql(`DELETE FROM "release" WHERE "id" = $1`, target) },
  ];

  it('answers the new target on both processes after every kind of change', async () => {
    for (const change of changes()) {
      const etag = await primeBoth();
      await change.apply();
      await syncBoth();
      await expect
        .soft(expectCurrent(change.name, etag, change.changesBody ?? true), change.name)
        .resolves.toBeUndefined();
    }
  });

  it('keeps serving from memory when something else changes', async () => {
    const etag = await primeBoth();
    const other = await fx.createDevice(db, fleet.id, 'neighbour');
    await db.query(
      `INSERT INTO "device_environment_variable" ("device", "name", "value") VALUES ($1, 'N', '1')`,
      [other.id],
    );
    await db.query(`UPDATE "application" SET "app_name" = 'Other' WHERE "id" = $1`, [
      otherFleet.id,
    ]);
    // Heartbeats and state reports write other device columns.
    await db.query(
      `UPDATE "device" SET "last_contact_at" = now(), "ip_address" = '10.0.0.9', "status" = 'Idle' WHERE "id" = $1`,
      [device.id],
    );
    await syncBoth();
    for (const process of processes) {
      const before = process.reads();
      expect((await poll(process, etag)).statusCode).toBe(304);
      expect(process.reads() - before, process.name).toBe(0);
    }
  });

  it('reads the database while its notifications are down, and caches again once they are back', async () => {
    const etag = await primeBoth();
    const { rows } = await db.query<{ pid: number }>(
      `SELECT "pid" FROM pg_stat_activity WHERE "datname" = current_database() AND "query" LIKE 'LISTEN%'`,
    );
    expect(rows).toHaveLength(processes.length);
    await db.query('SELECT pg_terminate_backend("pid") FROM unnest($1::int[]) AS t("pid")', [
      rows.map((row) => row.pid),
    ]);
    await waitFor('both feeds to notice', () =>
      processes.every((process) => !process.ctx.notifications.isLive()),
    );
    // Made while nobody listens: no process is ever notified of them. What a process builds
    // meanwhile is not kept either, so a second change is seen as well.
    await db.query(`UPDATE "device" SET "device_name" = 'unnoticed' WHERE "id" = $1`, [device.id]);
    await expectCurrent('renamed while deaf', etag, true);
    const renamed = (await fresh()).etag;
    await db.query(`UPDATE "device" SET "device_name" = 'unnoticed again' WHERE "id" = $1`, [
      device.id,
    ]);
    await expectCurrent('renamed again while deaf', renamed, true);
    expect(processes.some((process) => process.ctx.notifications.isLive())).toBe(false);
    await waitFor('both feeds to listen again', () =>
      processes.every((process) => process.ctx.notifications.isLive()),
    );
    await primeBoth();
  });

  it('notifies a fleet-level change once, writing no device row, however many devices', async () => {
    const crowd = await fx.createFleet(db, await fx.createOrganization(db, 'Crowd'), 'Crowd');
    for (let n = 0; n < 200; n += 1) await fx.createDevice(db, crowd.id, `crowd-${n}`);
    const versions = async () =>
      (
        await db.query<{ v: string }>(
          'SELECT "xmin"::text AS "v" FROM "device" WHERE "belongs_to__application" = $1 ORDER BY "id"',
          [crowd.id],
        )
      ).rows.map((row) => row.v);
    const before = await versions();
    const listener = await db.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.payload ?? ''));
    try {
      await listener.query('LISTEN "target_state"');
      await db.query(
        `INSERT INTO "application_environment_variable" ("application", "name", "value") VALUES ($1, 'EVERYONE', '1')`,
        [crowd.id],
      );
      // A notification sent after it arrives after it.
      await db.query(`SELECT pg_notify('target_state', 'end')`);
      await waitFor('the notifications', () => heard.includes('end'));
    } finally {
      listener.release(true);
    }
    expect(heard).toEqual([`f:${crowd.id}`, 'end']);
    expect(await versions()).toEqual(before);
  });
});
