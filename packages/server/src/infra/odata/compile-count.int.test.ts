import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overallStatus } from '../../model/definitions/device-status.js';
import {
  addOrganizationMember,
  createDevice,
  createFleet,
  createOrganization,
  createUser,
  type DeviceFixture,
  type FleetFixture,
} from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  deviceActor,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import type { Database } from '../db/database.js';
import { deviceStatuses as statuses } from '@flotilla/shared/devices/device-statuses';

// `owns__device/$count($filter=overall_status eq '...')` (the console's fleet list and summary) is
// answered from the status tally (compile-count.ts) where the caller's read permission on devices
// depends on their fleet alone, and row by row elsewhere; either way with the devices' own status.

type CountRow = { id: number; owns__device: number };

describe('status counts per fleet through /v7', () => {
  let db: Database;
  let api: ODataTestApp;
  let fleets: FleetFixture[];

  const countsPath = (status: string): string =>
    `/application?$select=id&$orderby=id asc&$expand=owns__device/$count($filter=overall_status eq '${status}')`;

  const served = async (status: string, as: string): Promise<CountRow[]> => {
    const response = await api.get(countsPath(status), as);
    expect(response.status).toBe(200);
    return (response.body as { d: CountRow[] }).d;
  };

  // The devices' own status, fleet by fleet (ids ascending), for fleets in `visible`.
  const expected = async (status: string, visible: number[]): Promise<CountRow[]> => {
    const { rows } = await db.query<CountRow>(
      `SELECT a."id", (SELECT count(*)::int FROM "device" "d" WHERE "d"."belongs_to__application" = a."id"
                 AND ${overallStatus('"d"')} = $1) AS "owns__device"
         FROM "application" a WHERE a."id" = ANY($2::int[]) ORDER BY a."id"`,
      [status, visible],
    );
    return rows;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const alice = await createUser(db, 'alice');
    api.actors.set('alice', userActor(alice));
    const organization = await createOrganization(db, 'Counts');
    await addOrganizationMember(db, alice.userId, organization, 'administrator');
    fleets = [
      await createFleet(db, organization, 'north'),
      await createFleet(db, organization, 'south'),
    ];
    const devices: DeviceFixture[] = [];
    for (const [index, fleet] of [0, 0, 0, 0, 1, 1, 1].entries()) {
      devices.push(await createDevice(db, fleets[fleet]?.id ?? 0, `device-${index}`));
    }
    // A spread of states: online, timing out, offline, updating, not on the VPN, inactive.
    await db.query(
      `UPDATE "device" SET
         "last_contact_at" = now() - (ARRAY[0, 16, 600, 1, 0, 2, 0])["id" % 7 + 1] * interval '1 minute',
         "status" = CASE WHEN "id" % 7 = 3 THEN 'Downloading' ELSE 'Idle' END,
         "is_connected_to_vpn" = "id" % 7 <> 4,
         "is_active" = "id" % 7 <> 5`,
    );
    const [first] = devices;
    if (!first || !fleets[0]) throw new Error('fixtures');
    api.actors.set('device', deviceActor(first, fleets[0].id));
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  it('gives an organization administrator every fleet the devices own, per status', async () => {
    for (const status of statuses) {
      expect(await served(status, 'alice')).toEqual(
        await expected(
          status,
          fleets.map((fleet) => fleet.id),
        ),
      );
    }
  });

  it('reads the tally for a fleet-wide reader, row by row for a device', async () => {
    const [north] = fleets;
    if (!north) throw new Error('fixtures');
    const own = async (status: string): Promise<number | undefined> =>
      (await served(status, 'device')).find((row) => row.id === north.id)?.owns__device;
    const before = await own('disconnected');
    expect(before).toBeDefined();
    // A tally that disagrees with the rows shows which one each caller is answered from.
    const skew = (delta: number) =>
      db.query(
        `INSERT INTO "device_status_tally" ("application", "base", "poll_interval_ms", "bin", "n")
         VALUES ($1, 'inactive', 0, '-infinity', $2)
         ON CONFLICT ("application", "base", "poll_interval_ms", "bin")
           DO UPDATE SET "n" = "device_status_tally"."n" + EXCLUDED."n"`,
        [north.id, delta],
      );
    await skew(100);
    try {
      const inactive = (await served('inactive', 'alice')).find((row) => row.id === north.id);
      const [truth] = await expected('inactive', [north.id]);
      expect(inactive?.owns__device).toBe((truth?.owns__device ?? 0) + 100);
      // The device reads only itself: its count is of the rows it may read.
      expect(await own('disconnected')).toBe(before);
      expect(await own('inactive')).toBe(0);
    } finally {
      await skew(-100);
    }
  });
});
