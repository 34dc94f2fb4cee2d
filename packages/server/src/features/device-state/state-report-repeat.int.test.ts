import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable, SqlValue } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import { applyStateReport as legacyApply } from '../../test-support/legacy-state-report/legacy-apply-state-report.js';
import type { NotificationBus } from '../../infra/db/notification-bus.js';
import { createTestNotificationBus } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { waitFor } from '../../test-support/wait-for.js';
import { applyStateReport, splitReport } from './apply-state-report.js';
import { createStateReportCache, type StateReportCache } from './state-report-cache.js';
import { createStateReportWriter, type StateReportWriter } from './state-report-writer.js';
import { stateReportBody } from '@flotilla/shared/device-protocol/state-report-v3';

// A device in steady state sends the same apps section again and again, and the one-statement
// report skips its installs while nothing they are computed from changed
// (device.applied_apps_digest, application.state_report_epoch). For each such change, the same
// report sent again must produce what the legacy path produces (and differ from before the
// change, or the case would prove nothing). A third device reports through this process's cache
// of applied reports (state-report-cache.ts, through the batching writer): the change's notification must make it apply the
// repeat again.

const one = async (db: Queryable, sql: string, params: SqlValue[] = []): Promise<number> => {
  const { rows } = await db.query<{ id: number }>(sql, params);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`nothing returned: ${sql}`);
  return id;
};

type Scene = {
  fleet: fx.FleetFixture;
  other: fx.FleetFixture;
  release: (commit: string, fleetId?: number) => Promise<number>;
  service: (name: string, fleetId?: number) => Promise<number>;
  image: (serviceId: number, releaseId: number) => Promise<number>;
};

type Case = {
  name: string;
  // Builds the world and returns the report's apps section (the scene's fleet uuid is known).
  setup: (scene: Scene) => Promise<Record<string, unknown>>;
  change: (scene: Scene, devices: readonly number[]) => Promise<void>;
};

const running = (...names: string[]) =>
  Object.fromEntries(names.map((name) => [name, { image: 'x', status: 'Running' }]));

const cases: Case[] = [
  {
    name: 'a release takes the reported commit',
    async setup({ fleet, release, service, image }) {
      await image(await service('main'), await release('old-commit'));
      return { [fleet.uuid]: { releases: { 'new-commit': { services: running('main') } } } };
    },
    async change({ fleet }) {
      await oneQuery(
        `UPDATE "release" SET "commit" = 'new-commit' WHERE "belongs_to__application" = $1`,
        [fleet.id],
      );
    },
  },
  {
    name: 'a release moves into the fleet',
    async setup({ fleet, other, release, service, image }) {
      const moving = await release('moving', other.id);
      await image(await service('main', other.id), moving);
      return { [fleet.uuid]: { releases: { moving: { services: running('main') } } } };
    },
    async change({ fleet, other }) {
      await oneQuery(
        `UPDATE "release" SET "belongs_to__application" = $1 WHERE "belongs_to__application" = $2`,
        [fleet.id, other.id],
      );
    },
  },
  {
    name: 'an image joins the release',
    async setup({ fleet, release, service, image }) {
      const r = await release('r');
      await image(await service('main'), r);
      await service('side');
      return { [fleet.uuid]: { releases: { r: { services: running('main', 'side') } } } };
    },
    async change({ fleet, image }) {
      const side = await oneId(
        `SELECT "id" FROM "service" WHERE "application" = $1 AND "service_name" = 'side'`,
        [fleet.id],
      );
      const r = await oneId(
        `SELECT "id" FROM "release" WHERE "belongs_to__application" = $1 AND "commit" = 'r'`,
        [fleet.id],
      );
      await image(side, r);
    },
  },
  {
    name: 'an image leaves the release',
    async setup({ fleet, release, service, image }) {
      const r = await release('r');
      await image(await service('main'), r);
      await image(await service('side'), r);
      return { [fleet.uuid]: { releases: { r: { services: running('main', 'side') } } } };
    },
    async change({ fleet }) {
      await oneQuery(
        `DELETE FROM "release_image" ri USING "image" i, "service" s
          WHERE ri."image" = i."id" AND s."id" = i."is_a_build_of__service"
            AND s."application" = $1 AND s."service_name" = 'side'`,
        [fleet.id],
      );
    },
  },
  {
    name: 'an image is said to be a build of another service',
    async setup({ fleet, release, service, image }) {
      const r = await release('r');
      await image(await service('main'), r);
      await image(await service('side'), r);
      return { [fleet.uuid]: { releases: { r: { services: running('main') } } } };
    },
    async change({ fleet }) {
      await oneQuery(
        `UPDATE "image" SET "is_a_build_of__service" = (SELECT "id" FROM "service" WHERE "application" = $1 AND "service_name" = 'side')
          WHERE "is_a_build_of__service" = (SELECT "id" FROM "service" WHERE "application" = $1 AND "service_name" = 'main')`,
        [fleet.id],
      );
    },
  },
  {
    name: 'a service takes the reported name',
    async setup({ fleet, release, service, image }) {
      await image(await service('old-name'), await release('r'));
      return { [fleet.uuid]: { releases: { r: { services: running('new-name') } } } };
    },
    async change({ fleet }) {
      await oneQuery(`UPDATE "service" SET "service_name" = 'new-name' WHERE "application" = $1`, [
        fleet.id,
      ]);
    },
  },
  {
    name: 'a fleet the report names turns public',
    async setup({ fleet, other, release, service, image }) {
      await image(await service('os', other.id), await release('os-release', other.id));
      return {
        [fleet.uuid]: { releases: {} },
        [other.uuid]: { releases: { 'os-release': { services: running('os') } } },
      };
    },
    async change({ other }) {
      await oneQuery('UPDATE "application" SET "is_public" = true WHERE "id" = $1', [other.id]);
    },
  },
  {
    name: 'a public fleet takes the reported uuid',
    async setup({ fleet, other, release, service, image }) {
      await oneQuery('UPDATE "application" SET "is_public" = true WHERE "id" = $1', [other.id]);
      await image(await service('os', other.id), await release('os-release', other.id));
      return {
        [fleet.uuid]: {},
        [`${other.uuid}-new`]: { releases: { 'os-release': { services: running('os') } } },
      };
    },
    async change({ other }) {
      await oneQuery(`UPDATE "application" SET "uuid" = "uuid" || '-new' WHERE "id" = $1`, [
        other.id,
      ]);
    },
  },
  {
    name: 'the target release changes',
    async setup({ fleet, release, service, image }) {
      // One image in both reported releases: the target's entry wins it.
      const a = await release('a');
      const b = await release('b');
      const shared = await image(await service('main'), a);
      await oneQuery(
        'INSERT INTO "release_image" ("image", "is_part_of__release") VALUES ($1, $2)',
        [shared, b],
      );
      await oneQuery('UPDATE "application" SET "should_be_running__release" = $2 WHERE "id" = $1', [
        fleet.id,
        a,
      ]);
      return {
        [fleet.uuid]: {
          releases: {
            a: { services: { main: { status: 'Running' } } },
            b: { services: { main: { status: 'Downloading' } } },
          },
        },
      };
    },
    async change({ fleet }, devices) {
      await oneQuery(
        `UPDATE "device" SET "is_pinned_on__release" = (SELECT "id" FROM "release" WHERE "belongs_to__application" = $1 AND "commit" = 'b')
          WHERE "id" = ANY($2)`,
        [fleet.id, devices],
      );
    },
  },
  {
    name: 'its installs are deleted behind its back',
    async setup({ fleet, release, service, image }) {
      await image(await service('main'), await release('r'));
      return { [fleet.uuid]: { releases: { r: { services: running('main') } } } };
    },
    async change(_scene, devices) {
      await oneQuery('DELETE FROM "image_install" WHERE "device" = ANY($1)', [devices]);
    },
  },
  {
    name: 'its service installs are deleted behind its back',
    async setup({ fleet, release, service, image }) {
      await image(await service('main'), await release('r'));
      return { [fleet.uuid]: { releases: { r: { services: running('main') } } } };
    },
    async change(_scene, devices) {
      await oneQuery('DELETE FROM "service_install" WHERE "device" = ANY($1)', [devices]);
    },
  },
];

let db: Database;
let bus: NotificationBus;
let cache: StateReportCache;
let writer: StateReportWriter;
const oneQuery = async (sql: string, params: SqlValue[]): Promise<void> => {
  await db.query(sql, params);
};
const oneId = (sql: string, params: SqlValue[]): Promise<number> => one(db, sql, params);

describe('state reports: a repeated report is recomputed when what it depends on changed', () => {
  beforeAll(async () => {
    db = await createTestDatabase();
    bus = createTestNotificationBus(db);
    await bus.start();
    cache = createStateReportCache(bus);
    writer = createStateReportWriter(db, cache);
    await waitFor('the bus to listen', () => bus.isLive());
  });
  afterAll(async () => {
    cache.close();
    await bus.stop();
    await db.close();
  });

  const installsOf = async (deviceId: number) => ({
    images: (
      await db.query(
        `SELECT i."is_stored_at__image_location" AS "image", s."service_name", ii."status", ii."download_progress", r."commit"
           FROM "image_install" ii JOIN "image" i ON i."id" = ii."installs__image"
           JOIN "service" s ON s."id" = i."is_a_build_of__service"
           JOIN "release" r ON r."id" = ii."is_provided_by__release"
          WHERE ii."device" = $1 ORDER BY 1, 2`,
        [deviceId],
      )
    ).rows,
    services: (
      await db.query(
        `SELECT s."service_name" FROM "service_install" si JOIN "service" s ON s."id" = si."installs__service"
          WHERE si."device" = $1 ORDER BY 1`,
        [deviceId],
      )
    ).rows,
  });

  for (const testCase of cases) {
    it(testCase.name, async () => {
      const org = await fx.createOrganization(db, `Repeat ${randomBytes(3).toString('hex')}`);
      const fleet = await fx.createFleet(db, org, `fleet-${randomBytes(3).toString('hex')}`);
      const other = await fx.createFleet(db, org, `other-${randomBytes(3).toString('hex')}`);
      let images = 0;
      const scene: Scene = {
        fleet,
        other,
        release: (commit, fleetId = fleet.id) => fx.createRelease(db, fleetId, commit),
        service: (name, fleetId = fleet.id) =>
          one(
            db,
            'INSERT INTO "service" ("application", "service_name") VALUES ($1, $2) RETURNING "id"',
            [fleetId, name],
          ),
        async image(serviceId, releaseId) {
          images += 1;
          const id = await one(
            db,
            `INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "status")
             VALUES ($1, $2, 'success') RETURNING "id"`,
            [serviceId, `image-${images}`],
          );
          await db.query(
            'INSERT INTO "release_image" ("image", "is_part_of__release") VALUES ($1, $2)',
            [id, releaseId],
          );
          return id;
        },
      };
      const apps = await testCase.setup(scene);
      const legacy = await fx.createDevice(db, fleet.id, 'legacy');
      const current = await fx.createDevice(db, fleet.id, 'current');
      const cached = await fx.createDevice(db, fleet.id, 'cached');
      const send = async (at: Date): Promise<void> => {
        const parsed = stateReportBody.parse({ [legacy.uuid]: { apps } })[legacy.uuid];
        if (!parsed) throw new Error('no report');
        await legacyApply(db, { id: legacy.id, applicationId: fleet.id }, parsed, at);
        const { columns } = splitReport(parsed);
        expect(await applyStateReport(db, current, columns, parsed.apps, at)).toBe(true);
        const report = { columns, apps: parsed.apps, agentProfile: undefined, now: at };
        expect(await writer.apply({ device: cached, ...report })).toBe(true);
      };
      await send(new Date('2033-01-01T00:00:00Z'));
      // Once its own writes are notified, the cache trusts the repeat that wrote nothing.
      await bus.sync();
      await send(new Date('2033-01-01T00:00:05Z'));
      const before = await installsOf(current.id);
      expect(before).toEqual(await installsOf(legacy.id));
      expect(await installsOf(cached.id)).toEqual(before);
      await testCase.change(scene, [legacy.id, current.id, cached.id]);
      // What a report that skipped its installs would leave.
      const stale = await installsOf(current.id);
      await bus.sync();
      await send(new Date('2033-01-01T00:00:10Z'));
      const after = await installsOf(legacy.id);
      expect(after, 'the change should change what the report produces').not.toEqual(stale);
      expect(await installsOf(current.id)).toEqual(after);
      expect(await installsOf(cached.id), 'through the cache').toEqual(after);
    });
  }
});
