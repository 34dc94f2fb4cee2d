import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable, SqlValue } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import { applyStateReport as legacyApply } from '../../test-support/legacy-state-report/legacy-apply-state-report.js';
import { recordDeviceContact as legacyContact } from '../../test-support/legacy-state-report/legacy-record-device-contact.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createDeviceContacts, type DeviceContacts } from '../heartbeat/device-contacts.js';
import { applyStateReport, splitReport } from './apply-state-report.js';
import {
  type DeviceReport,
  stateReportBody,
  updateStatuses,
} from '@flotilla/shared/device-protocol/state-report-v3';

// The one-statement state report (migrations/0009) against the statement-per-step one it
// replaced (test-support/legacy-state-report): two devices of one fleet get the same generated
// report sequences, one through each path (with its contact: per request before, batched now),
// and must end every step with the same rows.

const one = async (db: Queryable, sql: string, params: SqlValue[] = []): Promise<number> => {
  const { rows } = await db.query<{ id: number }>(sql, params);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`nothing returned: ${sql}`);
  return id;
};

// A small seeded generator (mulberry32), so a failure replays.
const generator = (seed: number) => {
  let state = seed;
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const pick = <T>(items: readonly T[]): T => {
    const item = items[Math.floor(next() * items.length)];
    if (item === undefined) throw new Error('nothing to pick from');
    return item;
  };
  const chance = (p: number): boolean => next() < p;
  // A random subset, in random order (the order of a report's keys matters).
  const some = <T>(items: readonly T[]): T[] =>
    items
      .filter(() => chance(0.5))
      .map((item) => ({ item, key: next() }))
      .sort((a, b) => a.key - b.key)
      .map(({ item }) => item);
  return { next, pick, chance, some };
};

type Random = ReturnType<typeof generator>;

// Values from small domains, so that reports often repeat what is stored.
const fieldValues: Record<string, readonly unknown[]> = {
  status: ['Idle', 'Downloading', null],
  os_version: ['balenaOS 6.0.1', 'balenaOS 6.1.0'],
  os_variant: ['prod', 'dev', null],
  supervisor_version: ['17.0.0', '17.1.0'],
  provisioning_progress: [null, 40, 100],
  provisioning_state: ['', 'Post-Provisioning', null],
  ip_address: ['10.0.0.2', '10.0.0.3 192.168.1.9'],
  mac_address: ['aa:bb:cc:dd:ee:ff', null],
  api_port: [48484, null],
  api_secret: ['s1', 's2'],
  cpu_id: ['cpu-1', 'cpu-2'],
  is_undervolted: [true, false],
  memory_usage: [100, 200.4, null],
  memory_total: [4096, 2048],
  storage_block_device: ['/dev/mmcblk0p6', null],
  storage_usage: [10, 20],
  storage_total: [28_000],
  cpu_usage: [1, 50, 99],
  cpu_temp: [47.6, 50, null],
  download_progress: [null, 0, 42, 100],
  update_status: [...updateStatuses, null],
};

type World = {
  fleetUuid: string;
  publicUuid: string;
  // Commits reports name: the fleet's releases, and one created and deleted along the way.
  commits: string[];
  publicCommit: string;
};

const serviceReport = (random: Random): Record<string, unknown> => ({
  ...(random.chance(0.8) ? { image: 'x' } : {}),
  ...(random.chance(0.7) ? { status: random.pick(['Running', 'Downloading', null]) } : {}),
  ...(random.chance(0.5) ? { download_progress: random.pick([null, 10, 100]) } : {}),
});

const releaseReport = (random: Random): Record<string, unknown> => ({
  ...(random.chance(0.6) ? { update_status: random.pick([...updateStatuses, null]) } : {}),
  ...(random.chance(0.9)
    ? {
        services: Object.fromEntries(
          random
            .some(['main', 'cache', 'extra', 'ghost'])
            .map((name) => [name, serviceReport(random)]),
        ),
      }
    : {}),
});

const appReport = (random: Random, commits: readonly string[]): Record<string, unknown> => ({
  ...(random.chance(0.7) ? { release_uuid: random.pick([...commits, 'unknown', null]) } : {}),
  ...(random.chance(0.9)
    ? {
        releases: Object.fromEntries(
          random.some([...commits, 'unknown']).map((commit) => [commit, releaseReport(random)]),
        ),
      }
    : {}),
});

const rawReport = (random: Random, world: World): Record<string, unknown> => {
  const report: Record<string, unknown> = {};
  for (const [field, values] of Object.entries(fieldValues)) {
    if (random.chance(0.3)) report[field] = random.pick(values);
  }
  if (random.chance(0.7)) {
    const apps: Record<string, unknown> = {};
    for (const app of random.some(['fleet', 'fleet', 'public', 'stranger'])) {
      if (app === 'fleet') apps[world.fleetUuid] = appReport(random, world.commits);
      else if (app === 'public') apps[world.publicUuid] = appReport(random, [world.publicCommit]);
      else apps[randomBytes(4).toString('hex')] = appReport(random, world.commits);
    }
    report.apps = apps;
  }
  return report;
};

describe('state reports: the one-statement version writes what the legacy one wrote', () => {
  let db: Database;
  let contacts: DeviceContacts;
  let fleet: fx.FleetFixture;
  let world: World;
  let releases: number[];
  let publicFleet: fx.FleetFixture;
  let extra: number;
  let main: number;
  let comingCommit: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    contacts = createDeviceContacts(db);
    const org = await fx.createOrganization(db, 'Equivalence');
    fleet = await fx.createFleet(db, org, 'Twins');
    publicFleet = await fx.createFleet(db, org, 'HostOS', { isPublic: true });
    const commits = [0, 1, 2].map(() => randomBytes(16).toString('hex'));
    releases = [];
    for (const commit of commits) releases.push(await fx.createRelease(db, fleet.id, commit));
    const publicCommit = randomBytes(16).toString('hex');
    const publicRelease = await fx.createRelease(db, publicFleet.id, publicCommit);
    const service = (application: number, name: string) =>
      one(
        db,
        'INSERT INTO "service" ("application", "service_name") VALUES ($1, $2) RETURNING "id"',
        [application, name],
      );
    const image = async (serviceId: number, ...releaseIds: number[]) => {
      const imageId = await one(
        db,
        `INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "status")
         VALUES ($1, 'registry.example/x', 'success') RETURNING "id"`,
        [serviceId],
      );
      for (const releaseId of releaseIds) {
        await db.query(
          'INSERT INTO "release_image" ("image", "is_part_of__release") VALUES ($1, $2)',
          [imageId, releaseId],
        );
      }
    };
    const [r1, r2, r3] = releases;
    if (r1 === undefined || r2 === undefined || r3 === undefined) throw new Error('no releases');
    main = await service(fleet.id, 'main');
    const cache = await service(fleet.id, 'cache');
    extra = await service(fleet.id, 'extra');
    await image(main, r1);
    await image(main, r2);
    await image(main, r3);
    // Unchanged by the updates: one image in every release.
    await image(cache, r1, r2, r3);
    // Two images of one service in one release: the newest counts.
    await image(extra, r3);
    await image(extra, r3);
    await image(await service(publicFleet.id, 'main'), publicRelease);
    await db.query('UPDATE "application" SET "should_be_running__release" = $2 WHERE "id" = $1', [
      fleet.id,
      r2,
    ]);
    comingCommit = randomBytes(16).toString('hex');
    world = {
      fleetUuid: fleet.uuid,
      publicUuid: publicFleet.uuid,
      commits: [...commits, comingCommit],
      publicCommit,
    };
  });
  afterAll(async () => {
    await db.close();
  });

  // Everything a report and a contact write, comparable between two devices.
  const stateOf = async (deviceId: number) => {
    const { rows } = await db.query<Record<string, unknown>>(
      'SELECT * FROM "device" WHERE "id" = $1',
      [deviceId],
    );
    // Everything but what differs between the two devices by construction.
    const differs = new Set([
      'id',
      'uuid',
      'actor',
      'device_name',
      'created_at',
      'modified_at',
      // Bookkeeping of the one-statement version only.
      'applied_apps_digest',
    ]);
    const row = rows[0] ?? {};
    const columns = Object.fromEntries(Object.entries(row).filter(([name]) => !differs.has(name)));
    const modifiedAt = row.modified_at;
    const images = await db.query(
      `SELECT "installs__image", "status", "download_progress", "is_provided_by__release", "install_date"
         FROM "image_install" WHERE "device" = $1 ORDER BY "installs__image"`,
      [deviceId],
    );
    const services = await db.query(
      `SELECT "installs__service" FROM "service_install" WHERE "device" = $1 ORDER BY 1`,
      [deviceId],
    );
    return { columns, images: images.rows, services: services.rows, modifiedAt };
  };

  const changeWorld = async (random: Random, devices: readonly number[]): Promise<void> => {
    const [r1, , r3] = releases;
    if (r1 === undefined || r3 === undefined) throw new Error('no releases');
    const change = random.pick([
      'coming release',
      'release re-committed',
      'release moved',
      'image in release',
      'image rebuilt',
      'fleet uuid',
      'service renamed',
      'publicity',
      'service installs removed',
      'install rewritten',
    ] as const);
    if (change === 'coming release') {
      // At most one coming release exists, in one fleet or the other, under one commit or the other.
      const { rowCount } = await db.query(
        `DELETE FROM "release" WHERE "belongs_to__application" IN ($1, $3) AND "commit" IN ($2, $2 || '-moved')`,
        [fleet.id, comingCommit, publicFleet.id],
      );
      if (rowCount === 0) {
        const id = await fx.createRelease(db, fleet.id, comingCommit);
        await db.query(
          `INSERT INTO "release_image" ("image", "is_part_of__release")
           SELECT ri."image", $2 FROM "release_image" ri WHERE ri."is_part_of__release" = $1`,
          [r1, id],
        );
      }
    } else if (change === 'release re-committed') {
      // The coming release's commit moves away and back.
      await db.query(
        `UPDATE "release" SET "commit" = CASE WHEN "commit" = $2 THEN $2 || '-moved' ELSE $2 END
          WHERE "belongs_to__application" IN ($1, $3) AND "commit" IN ($2, $2 || '-moved')`,
        [fleet.id, comingCommit, publicFleet.id],
      );
    } else if (change === 'release moved') {
      // The coming release moves to the public fleet and back.
      await db.query(
        `UPDATE "release" SET "belongs_to__application" = CASE "belongs_to__application" WHEN $1 THEN $3 ELSE $1 END
          WHERE "belongs_to__application" IN ($1, $3) AND "commit" IN ($2, $2 || '-moved')`,
        [fleet.id, comingCommit, publicFleet.id],
      );
    } else if (change === 'image rebuilt') {
      // The newest image of 'extra' in the last release is said to be a build of 'main', and back.
      await db.query(
        `UPDATE "image" SET "is_a_build_of__service" = CASE "is_a_build_of__service" WHEN $1 THEN $2 ELSE $1 END
          WHERE "id" = (SELECT max(i."id") FROM "image" i WHERE i."is_a_build_of__service" IN ($1, $2)
                          AND i."id" IN (SELECT ri."image" FROM "release_image" ri WHERE ri."is_part_of__release" = $3))`,
        [extra, main, r3],
      );
    } else if (change === 'fleet uuid') {
      await db.query(
        `UPDATE "application" SET "uuid" = CASE "uuid" WHEN $2 THEN $2 || '-x' ELSE $2 END WHERE "id" = $1`,
        [publicFleet.id, world.publicUuid],
      );
    } else if (change === 'image in release') {
      const { rowCount } = await db.query(
        `DELETE FROM "release_image" ri USING "image" i
          WHERE ri."image" = i."id" AND i."is_a_build_of__service" = $1 AND ri."is_part_of__release" = $2`,
        [extra, r1],
      );
      if (rowCount === 0) {
        await db.query(
          `INSERT INTO "release_image" ("image", "is_part_of__release")
           SELECT min(i."id"), $2 FROM "image" i WHERE i."is_a_build_of__service" = $1`,
          [extra, r1],
        );
      }
    } else if (change === 'service renamed') {
      await db.query(
        `UPDATE "service" SET "service_name" = CASE "service_name" WHEN 'cache' THEN 'cache-renamed' ELSE 'cache' END
          WHERE "application" = $1 AND "service_name" IN ('cache', 'cache-renamed')`,
        [fleet.id],
      );
    } else if (change === 'publicity') {
      await db.query('UPDATE "application" SET "is_public" = NOT "is_public" WHERE "id" = $1', [
        publicFleet.id,
      ]);
    } else if (change === 'service installs removed') {
      await db.query('DELETE FROM "service_install" WHERE "device" = ANY($1)', [devices]);
    } else {
      await db.query(`UPDATE "image_install" SET "status" = 'Tampered' WHERE "device" = ANY($1)`, [
        devices,
      ]);
    }
  };

  const parse = (uuid: string, raw: Record<string, unknown>): DeviceReport => {
    const report = stateReportBody.parse({ [uuid]: raw })[uuid];
    if (!report) throw new Error('no report');
    return report;
  };

  for (const seed of [1, 2, 3, 4]) {
    it(`ends every step with the same rows (seed ${seed})`, async () => {
      const random = generator(seed);
      const legacy = await fx.createDevice(db, fleet.id, `legacy-${seed}`);
      const current = await fx.createDevice(db, fleet.id, `current-${seed}`);
      let now = new Date('2031-01-01T00:00:00Z').getTime();
      let before = { legacy: await stateOf(legacy.id), current: await stateOf(current.id) };
      let previous: Record<string, unknown> | undefined;
      for (let step = 0; step < 80; step += 1) {
        if (random.chance(0.2)) {
          const pinned = random.pick([...releases, null]);
          await db.query(
            'UPDATE "device" SET "is_pinned_on__release" = $3 WHERE "id" IN ($1, $2)',
            [legacy.id, current.id, pinned],
          );
        }
        // What reports resolve to changes under them, and installs are written behind their back.
        if (random.chance(0.3)) await changeWorld(random, [legacy.id, current.id]);
        now += random.pick([0, 5_000, 9_999, 10_000, 30_000, 61_000]);
        const at = new Date(now);
        const raw = rawReport(random, world);
        // A device in steady state sends the same apps section again and again.
        if (previous?.apps !== undefined && random.chance(0.6)) raw.apps = previous.apps;
        previous = raw;

        await legacyApply(
          db,
          { id: legacy.id, applicationId: fleet.id },
          parse(legacy.uuid, raw),
          at,
        );
        await legacyContact(db, legacy.id, at);

        const report = parse(current.uuid, raw);
        const { columns, metrics } = splitReport(report);
        const own = await applyStateReport(db, current, columns, report.apps, at);
        expect(own).toBe(true);
        contacts.record(current.id, at, metrics);
        await contacts.flush();

        const after = { legacy: await stateOf(legacy.id), current: await stateOf(current.id) };
        const context = `step ${step}: ${JSON.stringify(raw)}`;
        expect(after.current.columns, context).toEqual(after.legacy.columns);
        expect(after.current.images, context).toEqual(after.legacy.images);
        expect(after.current.services, context).toEqual(after.legacy.services);
        // modified_at is the database's clock: both moved, or neither did.
        expect(
          after.current.modifiedAt?.valueOf() !== before.current.modifiedAt?.valueOf(),
          `${context}: modified_at moved`,
        ).toBe(after.legacy.modifiedAt?.valueOf() !== before.legacy.modifiedAt?.valueOf());
        before = after;
      }
    });
  }

  it('refuses a uuid that is not the device’s own, writing nothing', async () => {
    const device = await fx.createDevice(db, fleet.id, 'owner');
    const other = await fx.createDevice(db, fleet.id, 'other');
    const before = await stateOf(device.id);
    const own = await applyStateReport(
      db,
      { id: device.id, uuid: other.uuid },
      { status: 'hijacked' },
      {},
      new Date(),
    );
    expect(own).toBe(false);
    expect(await stateOf(device.id)).toEqual(before);
  });
});
