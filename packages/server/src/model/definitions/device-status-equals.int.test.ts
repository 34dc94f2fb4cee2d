import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import type { LiteralValue } from '../model-types.js';
import { v7Model } from '../v7-model.js';
import { offlineWindow, onlineWindow } from './device-status.js';
import { deviceStatuses as statuses } from '@flotilla/shared/devices/device-statuses';

// The equality conditions of the computed device fields (device-status-equals.ts) against the
// fields themselves, on devices in every combination of the states they depend on: each must
// select exactly the rows where `field = value` holds, and be NULL nowhere.

const row = '"d"';

const deviceField = (name: string) => {
  const field = v7Model.resources.get('device')?.fields.get(name);
  if (!field?.computed || !field.equals) throw new Error(`device.${name} has no equality`);
  return { computed: field.computed, equals: field.equals };
};

// The rules of overall_status and the heartbeat (device-status.ts) written straight over the raw
// columns, as they were before the stored deadlines and status base: the fields must still agree.
const reference = {
  heartbeat: `(CASE
    WHEN ${row}."last_contact_at" IS NULL THEN 'unknown'
    WHEN ${row}."last_contact_at" >= now() - ${onlineWindow(row)} THEN 'online'
    WHEN ${row}."last_contact_at" >= now() - ${offlineWindow(row)} THEN 'timeout'
    ELSE 'offline'
  END)`,
  status: `(CASE
    WHEN NOT ${row}."is_active" THEN 'inactive'
    WHEN ${row}."provisioning_state" = 'Post-Provisioning' THEN 'post-provisioning'
    WHEN ${row}."last_contact_at" IS NULL THEN 'configuring'
    WHEN ${row}."last_contact_at" < now() - ${offlineWindow(row)} THEN 'disconnected'
    WHEN (${row}."download_progress" IS NOT NULL AND ${row}."download_progress" < 100)
      OR ${row}."status" IN ('Downloading', 'Updating')
      OR ${row}."update_status" IN ('downloading', 'applying changes')
      OR EXISTS (SELECT 1 FROM "image_install" ii WHERE ii."device" = ${row}."id"
        AND (ii."status" = 'Downloading' OR (ii."download_progress" IS NOT NULL AND ii."download_progress" < 100)))
      THEN 'updating'
    WHEN ${row}."provisioning_progress" IS NOT NULL THEN 'configuring'
    WHEN ${row}."last_contact_at" < now() - ${onlineWindow(row)}
      OR (NOT ${row}."is_connected_to_vpn" AND coalesce(
        (SELECT v."value" FROM "device_config_variable" v WHERE v."device" = ${row}."id"
          AND v."name" IN ('RESIN_SUPERVISOR_VPN_CONTROL', 'BALENA_SUPERVISOR_VPN_CONTROL') ORDER BY v."name" LIMIT 1),
        (SELECT v."value" FROM "application_config_variable" v WHERE v."application" = ${row}."belongs_to__application"
          AND v."name" IN ('RESIN_SUPERVISOR_VPN_CONTROL', 'BALENA_SUPERVISOR_VPN_CONTROL') ORDER BY v."name" LIMIT 1),
        'true') <> 'false') THEN 'reduced-functionality'
    ELSE 'operational'
  END)`,
};

const cases: [field: string, values: LiteralValue[]][] = [
  ['overall_status', [...statuses, 'no such status']],
  ['api_heartbeat_state', ['online', 'timeout', 'offline', 'unknown', 'no such state']],
  ['is_online', [true, false]],
];

describe('equality conditions of the computed device fields', () => {
  let db: Database;

  beforeAll(async () => {
    db = await createTestDatabase();
    const organization = await fx.createOrganization(db, 'States');
    const fleets = [
      await fx.createFleet(db, organization, 'plain'),
      await fx.createFleet(db, organization, 'balenaoff'),
      await fx.createFleet(db, organization, 'resinoff'),
      await fx.createFleet(db, organization, 'balenaon'),
    ];
    const [plain, balenaOff, resinOff, balenaOn] = fleets.map((fleet) => fleet.id);
    if (!plain || !balenaOff || !resinOff || !balenaOn) throw new Error('fixtures');
    await db.query(
      `INSERT INTO "application_config_variable" ("application", "name", "value") VALUES
         ($1, 'BALENA_SUPERVISOR_VPN_CONTROL', 'false'),
         ($2, 'RESIN_SUPERVISOR_VPN_CONTROL', 'false'),
         ($3, 'BALENA_SUPERVISOR_VPN_CONTROL', 'true'), ($3, 'RESIN_SUPERVISOR_VPN_CONTROL', 'false')`,
      [balenaOff, resinOff, balenaOn],
    );
    // Every combination of what overall_status and the heartbeat read, in each fleet.
    await db.query(
      `WITH combos AS (
         SELECT row_number() OVER () AS n, *
           FROM unnest(ARRAY[true, false]) active
          CROSS JOIN unnest(ARRAY[NULL, 'Post-Provisioning']) pstate
          CROSS JOIN unnest(ARRAY[NULL, 1, 16, 60]) minutes_ago
          CROSS JOIN unnest(ARRAY['none', 'progress', 'status', 'update', 'done']) flags
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
         "download_progress", "status", "update_status", "provisioning_progress",
         "is_connected_to_vpn")
       SELECT a."id", md5('state' || c.n), 'state-' || c.n,
              (SELECT "id" FROM "device_type" WHERE "slug" = 'raspberrypi4-64'), c.fleet,
              c.active, c.pstate, now() - c.minutes_ago * interval '1 minute',
              CASE c.flags WHEN 'progress' THEN 50 WHEN 'done' THEN 100 END,
              CASE c.flags WHEN 'status' THEN 'Downloading' ELSE 'Idle' END,
              CASE c.flags WHEN 'update' THEN 'applying changes' WHEN 'done' THEN 'done' END,
              c.pprogress, c.vpn
         FROM combos c JOIN numbered a USING (n)`,
      [fleets.map((fleet) => fleet.id)],
    );
    // Image installs: downloading, finished, or none; device VPN variables that override the
    // fleet's, by either name.
    const release = await fx.createRelease(db, plain, 'c0ffee');
    await db.query(
      `WITH service AS (
         INSERT INTO "service" ("application", "service_name") VALUES ($1, 'main') RETURNING "id"
       ), image AS (
         INSERT INTO "image" ("is_a_build_of__service", "status", "is_stored_at__image_location")
         SELECT "id", 'success', 'registry/image' FROM service RETURNING "id"
       )
       INSERT INTO "image_install" ("device", "installs__image", "is_provided_by__release",
         "status", "download_progress")
       SELECT d."id", image."id", $2,
              CASE WHEN d."id" % 6 = 0 THEN 'Downloading' ELSE 'Running' END,
              CASE WHEN d."id" % 6 = 1 THEN 20 ELSE 100 END
         FROM "device" d CROSS JOIN image WHERE d."id" % 3 <> 2`,
      [plain, release],
    );
    await db.query(
      `INSERT INTO "device_config_variable" ("device", "name", "value")
       SELECT "id", 'BALENA_SUPERVISOR_VPN_CONTROL', 'false' FROM "device" WHERE "id" % 5 = 0
       UNION ALL SELECT "id", 'RESIN_SUPERVISOR_VPN_CONTROL', 'false' FROM "device" WHERE "id" % 5 = 1
       UNION ALL SELECT "id", 'BALENA_SUPERVISOR_VPN_CONTROL', 'true' FROM "device" WHERE "id" % 5 = 2
       UNION ALL SELECT "id", 'RESIN_SUPERVISOR_VPN_CONTROL', 'false' FROM "device" WHERE "id" % 5 = 2`,
    );
  });

  afterAll(async () => {
    await db.close();
  });

  const mismatches = async (): Promise<string[]> => {
    const problems: string[] = [];
    for (const [name, values] of cases) {
      const { computed, equals } = deviceField(name);
      for (const value of values) {
        const condition = equals(row, value);
        if (condition === undefined) throw new Error(`no condition for ${name} = ${value}`);
        const { rows } = await db.query<{ id: number; field: unknown; condition: unknown }>(
          `SELECT ${row}."id", ${computed(row)} AS "field", (${condition}) AS "condition"
             FROM "device" ${row}
            WHERE (${computed(row)} = $1) IS DISTINCT FROM (${condition})`,
          [value],
        );
        for (const found of rows) {
          problems.push(
            `${name} = ${String(value)}: device ${found.id} has ${String(found.field)}, condition ${String(found.condition)}`,
          );
        }
      }
    }
    return problems;
  };

  it('covers every status and heartbeat state', async () => {
    const { rows } = await db.query<{ status: string; heartbeat: string }>(
      `SELECT DISTINCT ${deviceField('overall_status').computed(row)} AS "status",
              ${deviceField('api_heartbeat_state').computed(row)} AS "heartbeat"
         FROM "device" ${row}`,
    );
    expect(new Set(rows.map((found) => found.status))).toEqual(new Set(statuses));
    expect(new Set(rows.map((found) => found.heartbeat))).toEqual(
      new Set(['online', 'timeout', 'offline', 'unknown']),
    );
  });

  // Devices whose computed status or heartbeat differs from the reference rules.
  const departures = async (): Promise<string[]> => {
    const status = deviceField('overall_status').computed(row);
    const heartbeat = deviceField('api_heartbeat_state').computed(row);
    const { rows } = await db.query<{ id: number; found: string; expected: string }>(
      `SELECT ${row}."id", ${status} || '/' || ${heartbeat} AS "found",
              ${reference.status} || '/' || ${reference.heartbeat} AS "expected"
         FROM "device" ${row}
        WHERE ${status} <> ${reference.status} OR ${heartbeat} <> ${reference.heartbeat}`,
    );
    return rows.map((found) => `device ${found.id}: ${found.found}, expected ${found.expected}`);
  };

  it('computes status and heartbeat by their rules', async () => {
    expect(await departures()).toEqual([]);
  });

  it('selects exactly the devices whose field has the value', async () => {
    expect(await mismatches()).toEqual([]);
  });

  it('still does both with other poll intervals', async () => {
    await db.query(`UPDATE "device" SET "poll_interval_ms" = 10000 + ("id" * 7919) % 3600000`);
    expect(await departures()).toEqual([]);
    expect(await mismatches()).toEqual([]);
  });

  it('stores the deadlines the heartbeat windows give', async () => {
    const { rows } = await db.query<{ id: number }>(
      `SELECT ${row}."id" FROM "device" ${row}
        WHERE ${row}."online_until" IS DISTINCT FROM ${row}."last_contact_at" + ${onlineWindow(row)}
           OR ${row}."timeout_until" IS DISTINCT FROM ${row}."last_contact_at" + ${offlineWindow(row)}`,
    );
    expect(rows).toEqual([]);
  });
});
