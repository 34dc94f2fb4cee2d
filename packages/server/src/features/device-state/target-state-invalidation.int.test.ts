import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable, SqlValue } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  devicePolls,
  type PollingProcess,
  startPollingProcesses,
} from '../../test-support/target-state-processes.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';

const one = async (db: Queryable, sql: string, params: SqlValue[] = []): Promise<number> => {
  const { rows } = await db.query<{ id: number }>(sql, params);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`nothing returned: ${sql}`);
  return id;
};

// Two server processes on one database, each with its own target-state cache and LISTEN
// connection. Every kind of change a target is built from is made (straight in the database, or
// through process A's API); the next poll on either process must answer what a fresh build
// answers: 200 with the new body when it changed, 304 when it did not.
describe('target-state cache invalidation across processes', () => {
  let db: Database;
  let processes: PollingProcess[];
  let polls: ReturnType<typeof devicePolls>;
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
    processes = await startPollingProcesses(db, ['A', 'B']);
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
    polls = devicePolls(db, processes, device, deviceKey);
  });
  afterAll(async () => {
    for (const { app } of processes ?? []) await app.close();
    await db?.close();
  });

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
      // A deactivated device runs no release.
      name: 'device deactivated',
      apply: sql(`UPDATE "device" SET "is_active" = false WHERE "id" = $1`, device.id),
    },
    {
      name: 'device activated again',
      apply: sql(`UPDATE "device" SET "is_active" = true WHERE "id" = $1`, device.id),
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
      const etag = await polls.primeAll();
      await change.apply();
      await polls.syncAll();
      await expect
        .soft(polls.expectCurrent(change.name, etag, change.changesBody ?? true), change.name)
        .resolves.toBeUndefined();
    }
  });

  it('keeps serving from memory when something else changes', async () => {
    const etag = await polls.primeAll();
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
    await polls.syncAll();
    for (const process of processes) {
      const before = process.reads();
      expect((await polls.poll(process, etag)).statusCode).toBe(304);
      expect(process.reads() - before, process.name).toBe(0);
    }
  });
});
