import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { fleetStatusCount } from './device-status-count.js';
import { overallStatus } from './device-status.js';
import { deviceStatuses as statuses } from '@flotilla/shared/devices/device-statuses';

// The per-fleet status counts from the tally (device-status-count.ts, 0022) against counting
// overall_status device by device, at many moments (a fake clock: now() of the statements below
// reads a setting) and after every kind of change the tally follows: contacts, going offline by
// time, fleet moves, deactivation, deletion, new devices, image installs and VPN variables,
// compaction.

const minute = 60_000;

// now() for the statements of `work`: fake_clock.now() shadows pg_catalog's on the search path.
const at = <T>(db: Database, time: Date, work: (tx: Queryable) => Promise<T>): Promise<T> =>
  db.transaction(async (tx) => {
    await tx.query(`SELECT set_config('search_path', 'fake_clock, pg_catalog, public', true)`);
    await tx.query(`SELECT set_config('fake_clock.now', $1, true)`, [time.toISOString()]);
    return work(tx);
  });

describe('per-fleet device status counts from the tally', () => {
  let db: Database;
  let fleets: number[] = [];
  let start = new Date();

  // Every fleet and status where the tally's count differs from the row by row count at `time`.
  const mismatchesAt = (time: Date): Promise<string[]> =>
    at(db, time, async (tx) => {
      const parts = statuses.map(
        (status) =>
          `SELECT f."id", '${status}' AS "status", ${fleetStatusCount('f."id"', status)} AS "tally",
                  (SELECT count(*) FROM "device" "d" WHERE "d"."belongs_to__application" = f."id"
                      AND ${overallStatus('"d"')} = '${status}') AS "rows"
             FROM "application" f WHERE f."id" = ANY($1::int[])`,
      );
      const { rows } = await tx.query<{ id: number; status: string; tally: number; rows: number }>(
        `SELECT * FROM (${parts.join(' UNION ALL ')}) c WHERE c."tally" <> c."rows"`,
        [fleets],
      );
      return rows.map(
        (found) =>
          `${time.toISOString()} fleet ${found.id} ${found.status}: tally ${found.tally}, rows ${found.rows}`,
      );
    });

  // Moments around the devices' deadlines and the tally's minute bins (just before, at, just
  // after), and a spread of later ones up to two days.
  const moments = async (): Promise<Date[]> => {
    const { rows } = await db.query<{ t: Date }>(
      `SELECT DISTINCT t FROM "device" d,
         LATERAL (VALUES (d."online_until"), (d."timeout_until"),
           (date_bin('1 minute', d."timeout_until", '2000-01-01 00:00:00+00') + interval '1 minute'),
           (date_bin('1 minute', d."timeout_until", '2000-01-01 00:00:00+00')
              - d."poll_interval_ms" * interval '1 millisecond')) v(t)
        WHERE t IS NOT NULL ORDER BY t`,
    );
    const picked = rows.filter((_, index) => index % Math.ceil(rows.length / 12) === 0);
    const around = picked.flatMap(({ t }) => [-1, 0, 1].map((ms) => new Date(t.getTime() + ms)));
    const spread = [0, 0.5, 1, 2, 5, 15, 16, 25, 45, 90, 240, 2880].map(
      (minutes) => new Date(start.getTime() + minutes * minute),
    );
    return [...around, ...spread];
  };

  const sweep = async (): Promise<string[]> => {
    const problems: string[] = [];
    for (const time of await moments()) problems.push(...(await mismatchesAt(time)));
    const { rows } = await db.query<{ id: number }>(
      `SELECT f."id" FROM "application" f
        WHERE (SELECT count(*) FROM "device" d WHERE d."belongs_to__application" = f."id")
           <> (SELECT coalesce(sum(t."n"), 0) FROM "device_status_tally" t WHERE t."application" = f."id")`,
    );
    return [...problems, ...rows.map((found) => `fleet ${found.id}: tally total differs`)];
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.query(`CREATE SCHEMA IF NOT EXISTS "fake_clock"`);
    await db.query(
      `CREATE OR REPLACE FUNCTION "fake_clock".now() RETURNS timestamptz LANGUAGE sql STABLE
         AS $$ SELECT current_setting('fake_clock.now')::timestamptz $$`,
    );
    const organization = await fx.createOrganization(db, 'Tally');
    fleets = [
      (await fx.createFleet(db, organization, 'plain')).id,
      (await fx.createFleet(db, organization, 'vpnoff')).id,
      (await fx.createFleet(db, organization, 'resinoff')).id,
    ];
    const [plain, vpnOff, resinOff] = fleets;
    if (plain === undefined || vpnOff === undefined || resinOff === undefined) {
      throw new Error('fixtures');
    }
    await db.query(
      `INSERT INTO "application_config_variable" ("application", "name", "value") VALUES
         ($1, 'BALENA_SUPERVISOR_VPN_CONTROL', 'false'), ($2, 'RESIN_SUPERVISOR_VPN_CONTROL', 'false')`,
      [vpnOff, resinOff],
    );
    // Devices in every combination of what overall_status reads, with four poll intervals.
    await db.query(
      `WITH combos AS (
         SELECT row_number() OVER () AS n, *
           FROM unnest(ARRAY[true, false]) active
          CROSS JOIN unnest(ARRAY[NULL, 'Post-Provisioning']) pstate
          CROSS JOIN unnest(ARRAY[NULL, 0.2, 1, 3, 16, 60, 600]) minutes_ago
          CROSS JOIN unnest(ARRAY['none', 'progress', 'status']) flags
          CROSS JOIN unnest(ARRAY[NULL, 30]) pprogress
          CROSS JOIN unnest(ARRAY[true, false]) vpn
          CROSS JOIN unnest($1::int[]) fleet
       ), actors AS (
         INSERT INTO "actor" SELECT FROM combos RETURNING "id"
       ), numbered AS (
         SELECT row_number() OVER (ORDER BY "id") AS n, "id" FROM actors
       )
       INSERT INTO "device" ("actor", "uuid", "device_name", "is_of__device_type",
         "belongs_to__application", "is_active", "provisioning_state", "last_contact_at",
         "poll_interval_ms", "download_progress", "status", "provisioning_progress",
         "is_connected_to_vpn")
       SELECT a."id", md5('tally' || c.n), 'tally-' || c.n,
              (SELECT "id" FROM "device_type" WHERE "slug" = 'raspberrypi4-64'), c.fleet,
              c.active, c.pstate, now() - c.minutes_ago * interval '1 minute',
              (ARRAY[10000, 60000, 600000, 3600000])[1 + c.n % 4],
              CASE c.flags WHEN 'progress' THEN 50 END,
              CASE c.flags WHEN 'status' THEN 'Downloading' ELSE 'Idle' END,
              c.pprogress, c.vpn
         FROM combos c JOIN numbered a USING (n)`,
      [fleets],
    );
    const release = await fx.createRelease(db, plain, 'c0ffee');
    await db.query(
      `WITH service AS (
         INSERT INTO "service" ("application", "service_name") VALUES ($1, 'main') RETURNING "id"
       )
       INSERT INTO "image" ("is_a_build_of__service", "status", "is_stored_at__image_location")
       SELECT "id", 'success', 'registry/image' FROM service`,
      [plain],
    );
    await db.query(
      `INSERT INTO "image_install" ("device", "installs__image", "is_provided_by__release",
         "status", "download_progress")
       SELECT d."id", (SELECT max("id") FROM "image"), $1,
              CASE WHEN d."id" % 6 = 0 THEN 'Downloading' ELSE 'Running' END,
              CASE WHEN d."id" % 6 = 1 THEN 20 ELSE 100 END
         FROM "device" d WHERE d."id" % 3 <> 2`,
      [release],
    );
    await db.query(
      `INSERT INTO "device_config_variable" ("device", "name", "value")
       SELECT "id", 'BALENA_SUPERVISOR_VPN_CONTROL', 'false' FROM "device" WHERE "id" % 7 = 0
       UNION ALL SELECT "id", 'RESIN_SUPERVISOR_VPN_CONTROL', 'true' FROM "device" WHERE "id" % 7 = 1`,
    );
    const { rows } = await db.query<{ now: Date }>(`SELECT now() AS "now"`);
    start = rows[0]?.now ?? new Date();
  });

  afterAll(async () => {
    await db.close();
  });

  it('counts every status of every fleet as the devices have it, as time passes', async () => {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(DISTINCT ${overallStatus('"d"')})::int AS "n" FROM "device" "d"`,
    );
    expect(rows[0]?.n).toBe(statuses.length);
    expect(await sweep()).toEqual([]);
  });

  it('follows contacts, one by one and in batches', async () => {
    await db.query(`UPDATE "device" SET "last_contact_at" = now() WHERE "id" % 5 = 0`);
    for (const id of [1, 2, 3]) {
      await db.query(
        `UPDATE "device" SET "last_contact_at" = now() - interval '30 seconds' WHERE "id" = $1`,
        [id],
      );
    }
    await db.query(
      `UPDATE "device" SET "poll_interval_ms" = 120000, "last_contact_at" = now() - interval '2 minutes'
        WHERE "id" % 11 = 3`,
    );
    expect(await sweep()).toEqual([]);
  });

  it('follows devices whose cloudlink was lost, and their return', async () => {
    await db.query(
      `UPDATE "device" SET "cloudlink_lost_at" = now() - (("id" % 4) * interval '20 seconds')
        WHERE "id" % 9 = 4`,
    );
    expect(await sweep()).toEqual([]);
    await db.query(
      `UPDATE "device" SET "cloudlink_lost_at" = NULL, "last_contact_at" = now()
        WHERE "id" % 18 = 4`,
    );
    expect(await sweep()).toEqual([]);
  });

  it('tells apart devices whose deadlines share a minute but not a poll interval', async () => {
    // Timing out until the same instant: 10 min interval (online until 10 min before), 1 min.
    const deadline = new Date(start.getTime() + 5 * minute);
    await db.query(
      `UPDATE "device" SET "poll_interval_ms" = 600000,
              "last_contact_at" = $1::timestamptz - interval '25 minutes 10 seconds'
        WHERE "id" % 17 = 4`,
      [deadline],
    );
    await db.query(
      `UPDATE "device" SET "poll_interval_ms" = 60000,
              "last_contact_at" = $1::timestamptz - interval '2 minutes 40 seconds'
        WHERE "id" % 17 = 5`,
      [deadline],
    );
    const binStart = Math.floor(deadline.getTime() / minute) * minute;
    const instants = [deadline.getTime(), deadline.getTime() - minute, binStart, binStart + minute];
    for (const instant of instants) {
      for (const ms of [-1, 0, 1]) {
        expect(await mismatchesAt(new Date(instant + ms))).toEqual([]);
      }
    }
  });

  it('follows fleet moves, deactivation, deletion and new devices', async () => {
    const [plain, vpnOff] = fleets;
    if (plain === undefined || vpnOff === undefined) throw new Error('fixtures');
    await db.query(
      `UPDATE "device" SET "belongs_to__application" = $2
        WHERE "belongs_to__application" = $1 AND "id" % 4 = 1`,
      [plain, vpnOff],
    );
    await db.query(`UPDATE "device" SET "is_active" = NOT "is_active" WHERE "id" % 9 = 2`);
    await db.query(`DELETE FROM "image_install" WHERE "device" % 13 = 0`);
    await db.query(`DELETE FROM "device_config_variable" WHERE "device" % 13 = 0`);
    await db.query(`DELETE FROM "device" WHERE "id" % 13 = 0`);
    await fx.createDevice(db, plain, 'newcomer');
    expect(await sweep()).toEqual([]);
  });

  it('follows image installs and VPN variables of devices and fleets', async () => {
    await db.query(
      `UPDATE "image_install" SET "status" = 'Downloading', "download_progress" = 10
        WHERE "device" % 4 = 2`,
    );
    await db.query(`UPDATE "image_install" SET "status" = 'Running', "download_progress" = 100
        WHERE "device" % 4 = 3`);
    await db.query(
      `INSERT INTO "device_config_variable" ("device", "name", "value")
       SELECT "id", 'BALENA_SUPERVISOR_VPN_CONTROL', 'true' FROM "device" WHERE "id" % 7 = 3`,
    );
    await db.query(
      `UPDATE "application_config_variable" SET "value" = 'true'
        WHERE "name" = 'RESIN_SUPERVISOR_VPN_CONTROL'`,
    );
    expect(await sweep()).toEqual([]);
  });

  it('stays exact when offline rows are compacted and their devices come back', async () => {
    const later = new Date(start.getTime() + 48 * 60 * minute);
    await at(db, later, (tx) => tx.query(`SELECT flotilla_compact_device_status_tally()`));
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS "n" FROM "device_status_tally"
        WHERE "bin" = '-infinity' AND "base" IN ('updating', 'provisioning', 'no-vpn', 'ok')`,
    );
    expect(rows[0]?.n).toBeGreaterThan(0);
    expect(await mismatchesAt(later)).toEqual([]);
    // Compacted devices contact again (their old rows go negative), then time passes.
    await db.query(`UPDATE "device" SET "last_contact_at" = $1 WHERE "id" % 3 = 0`, [
      new Date(later.getTime() - 5 * minute),
    ]);
    for (const offset of [0, 1, 3, 20, 90, 600]) {
      expect(await mismatchesAt(new Date(later.getTime() + offset * minute))).toEqual([]);
    }
    // Compacted again (time only moves forward from there on).
    const after = new Date(later.getTime() + 10 * minute);
    await at(db, after, (tx) => tx.query(`SELECT flotilla_compact_device_status_tally()`));
    for (const offset of [0, 1, 3, 20, 90, 600]) {
      expect(await mismatchesAt(new Date(after.getTime() + offset * minute))).toEqual([]);
    }
  });

  it('empties with the devices', async () => {
    const resinOff = fleets[2];
    if (resinOff === undefined) throw new Error('the third fleet is missing');
    // A deleted fleet takes its devices with it (ON DELETE CASCADE), and their counts.
    await db.query(`DELETE FROM "application" WHERE "id" = $1`, [resinOff]);
    const { rows: left } = await db.query<{ n: number }>(
      `SELECT coalesce(sum("n"), 0)::int AS "n" FROM "device_status_tally" WHERE "application" = $1`,
      [resinOff],
    );
    expect(left[0]?.n).toBe(0);
    // After the compactions of the test before (time only moves forward).
    expect(await mismatchesAt(new Date(start.getTime() + 72 * 60 * minute))).toEqual([]);
    await db.query(`TRUNCATE "device" CASCADE`);
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS "n" FROM "device_status_tally"`,
    );
    expect(rows[0]?.n).toBe(0);
  });
});
