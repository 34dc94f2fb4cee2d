import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createDeviceContacts } from './device-contacts.js';

type Heartbeat = {
  api_heartbeat_state: string;
  is_online: boolean;
  last_connectivity_event: string | null;
  changed_api_heartbeat_state_on__date: string | null;
  overall_status: string;
};

const minutes = (n: number): number => n * 60_000;

describe('heartbeat: derived from the last contact and the poll interval', () => {
  let db: Database;
  let api: ODataTestApp;
  let fleet: fx.FleetFixture;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const user = await fx.createUser(db, 'watcher');
    api.actors.set('watcher', userActor(user));
    const org = await fx.createOrganization(db, 'Beats');
    await fx.addOrganizationMember(db, user.userId, org, 'administrator');
    fleet = await fx.createFleet(db, org, 'Pulse');
  });
  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  const heartbeatOf = async (deviceId: number): Promise<Heartbeat> => {
    const response = await api.get(
      `/device(${deviceId})?$select=api_heartbeat_state,is_online,last_connectivity_event,changed_api_heartbeat_state_on__date,overall_status`,
      'watcher',
    );
    expect(response.status, response.text).toBe(200);
    const row = (response.body as { d: Heartbeat[] }).d[0];
    if (!row) throw new Error('device not visible');
    return row;
  };

  // Moves the stored contact into the past, as time passing would.
  const lastContactAgo = async (deviceId: number, ms: number): Promise<Date> => {
    const { rows } = await db.query<{ at: Date }>(
      `UPDATE "device" SET "last_contact_at" = now() - $2 * interval '1 millisecond'
        WHERE "id" = $1 RETURNING "last_contact_at" AS "at"`,
      [deviceId, ms],
    );
    const at = rows[0]?.at;
    if (!at) throw new Error('no device');
    return at;
  };

  // A contact, written as the next flush writes it; true when it changed the stored contact. A
  // recorder of its own each time: the tests move stored contacts behind its back (time passing),
  // which a long-lived one would not know of (it skips contacts it wrote less than 10 s before).
  const contact = async (id: number, at: Date): Promise<boolean> => {
    const stored = async () =>
      (
        await db.query<{ at: Date | null }>(
          'SELECT "last_contact_at" AS "at" FROM "device" WHERE "id" = $1',
          [id],
        )
      ).rows[0]?.at;
    const before = await stored();
    const contacts = createDeviceContacts(db);
    contacts.record(id, at);
    await contacts.flush();
    return (await stored())?.getTime() !== before?.getTime();
  };

  const lostOf = async (id: number): Promise<Date | null | undefined> =>
    (
      await db.query<{ lost: Date | null }>(
        'SELECT "cloudlink_lost_at" AS "lost" FROM "device" WHERE "id" = $1',
        [id],
      )
    ).rows[0]?.lost;

  const newDevice = async (name: string): Promise<number> => {
    const device = await fx.createDevice(db, fleet.id, name);
    // Cloudlink up, so a live device is operational rather than reduced-functionality.
    await db.query('UPDATE "device" SET "is_connected_to_vpn" = true WHERE "id" = $1', [device.id]);
    return device.id;
  };

  it('goes unknown → online → timeout → offline → online with the default 10 min interval', async () => {
    const id = await newDevice('walker');
    expect(await heartbeatOf(id)).toEqual({
      api_heartbeat_state: 'unknown',
      is_online: false,
      last_connectivity_event: null,
      changed_api_heartbeat_state_on__date: null,
      overall_status: 'configuring',
    });

    const first = new Date();
    expect(await contact(id, first)).toBe(true);
    expect(await heartbeatOf(id)).toEqual({
      api_heartbeat_state: 'online',
      is_online: true,
      last_connectivity_event: first.toISOString(),
      changed_api_heartbeat_state_on__date: first.toISOString(),
      overall_status: 'operational',
    });

    // Online up to 1.5 intervals (+10 s), then timing out for one more interval.
    await lastContactAgo(id, minutes(14));
    expect((await heartbeatOf(id)).api_heartbeat_state).toBe('online');
    const timedOut = await lastContactAgo(id, minutes(16));
    expect(await heartbeatOf(id)).toEqual({
      api_heartbeat_state: 'timeout',
      is_online: true,
      last_connectivity_event: first.toISOString(),
      changed_api_heartbeat_state_on__date: new Date(
        timedOut.getTime() + minutes(15) + 10_000,
      ).toISOString(),
      overall_status: 'reduced-functionality',
    });
    const gone = await lastContactAgo(id, minutes(26));
    expect(await heartbeatOf(id)).toEqual({
      api_heartbeat_state: 'offline',
      is_online: false,
      // When it was last connected.
      last_connectivity_event: gone.toISOString(),
      changed_api_heartbeat_state_on__date: new Date(
        gone.getTime() + minutes(25) + 10_000,
      ).toISOString(),
      overall_status: 'disconnected',
    });

    const back = new Date();
    expect(await contact(id, back)).toBe(true);
    expect(await heartbeatOf(id)).toMatchObject({
      api_heartbeat_state: 'online',
      is_online: true,
      last_connectivity_event: back.toISOString(),
      changed_api_heartbeat_state_on__date: back.toISOString(),
    });
  });

  it('notices a lost cloudlink within 30 s, and a later call or link ends the loss', async () => {
    const id = await newDevice('unplugged');
    const connected = new Date(Date.now() - minutes(2));
    await contact(id, connected);
    const lose = async (agoMs: number): Promise<Date> => {
      const { rows } = await db.query<{ at: Date }>(
        `UPDATE "device" SET "is_connected_to_vpn" = false,
                "cloudlink_lost_at" = now() - $2 * interval '1 millisecond'
          WHERE "id" = $1 RETURNING "cloudlink_lost_at" AS "at"`,
        [id, agoMs],
      );
      const at = rows[0]?.at;
      if (!at) throw new Error('no device');
      return at;
    };
    // Timing out from the loss (still connected: it may come back), for 30 s.
    await lose(5_000);
    expect(await heartbeatOf(id)).toMatchObject({
      api_heartbeat_state: 'timeout',
      is_online: true,
    });
    const lost = await lose(31_000);
    expect(await heartbeatOf(id)).toEqual({
      api_heartbeat_state: 'offline',
      is_online: false,
      last_connectivity_event: connected.toISOString(),
      changed_api_heartbeat_state_on__date: new Date(lost.getTime() + 30_000).toISOString(),
      overall_status: 'disconnected',
    });
    // A contact older than the loss (a batch written late) does not end it.
    await contact(id, new Date(lost.getTime() - 1_000));
    expect((await heartbeatOf(id)).api_heartbeat_state).toBe('offline');
    // A call after it does; the device counts as connected again from then, and the heartbeat
    // rules apply again (online for the poll window).
    const back = new Date();
    expect(await contact(id, back)).toBe(true);
    expect(await heartbeatOf(id)).toMatchObject({
      api_heartbeat_state: 'online',
      is_online: true,
      last_connectivity_event: back.toISOString(),
    });
    expect(await lostOf(id)).toBeNull();
  });

  it('ends a loss with a call even within the 10 s contact throttle', async () => {
    const id = await newDevice('blip');
    await db.query(
      `UPDATE "device" SET "last_contact_at" = now() - interval '5 seconds',
              "cloudlink_lost_at" = now() - interval '3 seconds' WHERE "id" = $1`,
      [id],
    );
    expect(await contact(id, new Date())).toBe(true);
    expect(await lostOf(id)).toBeNull();
    expect((await heartbeatOf(id)).api_heartbeat_state).toBe('online');
  });

  it('restarts the online time after a timeout but keeps the connection time', async () => {
    const id = await newDevice('flaky');
    const connected = new Date();
    await contact(id, connected);
    await lastContactAgo(id, minutes(20));
    const resumed = new Date();
    await contact(id, resumed);
    expect(await heartbeatOf(id)).toMatchObject({
      api_heartbeat_state: 'online',
      last_connectivity_event: connected.toISOString(),
      changed_api_heartbeat_state_on__date: resumed.toISOString(),
    });
  });

  it('writes a contact at most once per 10 s per device', async () => {
    const id = await newDevice('chatty');
    const start = new Date('2031-05-01T00:00:00Z');
    expect(await contact(id, start)).toBe(true);
    expect(await contact(id, new Date(start.getTime() + 9_999))).toBe(false);
    expect(await contact(id, new Date(start.getTime() + 10_000))).toBe(true);
    const { rows } = await db.query<{ at: Date }>(
      'SELECT "last_contact_at" AS "at" FROM "device" WHERE "id" = $1',
      [id],
    );
    expect(rows[0]?.at).toEqual(new Date(start.getTime() + 10_000));
  });

  it('follows the poll interval config variable of the device, else of its fleet', async () => {
    const id = await newDevice('tuned');
    const intervalAfterContact = async (): Promise<number> => {
      // Far enough apart for the write throttle.
      await db.query(`UPDATE "device" SET "last_contact_at" = NULL WHERE "id" = $1`, [id]);
      await contact(id, new Date());
      const { rows } = await db.query<{ ms: number }>(
        'SELECT "poll_interval_ms" AS "ms" FROM "device" WHERE "id" = $1',
        [id],
      );
      return rows[0]?.ms ?? -1;
    };
    expect(await intervalAfterContact()).toBe(600_000);
    await db.query(
      `INSERT INTO "application_config_variable" ("application", "name", "value") VALUES ($1, 'RESIN_SUPERVISOR_POLL_INTERVAL', '120000')`,
      [fleet.id],
    );
    expect(await intervalAfterContact()).toBe(120_000);
    await db.query(
      `INSERT INTO "device_config_variable" ("device", "name", "value") VALUES ($1, 'BALENA_SUPERVISOR_POLL_INTERVAL', '60000')`,
      [id],
    );
    expect(await intervalAfterContact()).toBe(60_000);

    // 60 s interval: online for 100 s, timing out until 160 s, then offline.
    await lastContactAgo(id, 90_000);
    expect((await heartbeatOf(id)).api_heartbeat_state).toBe('online');
    await lastContactAgo(id, 120_000);
    expect((await heartbeatOf(id)).api_heartbeat_state).toBe('timeout');
    await lastContactAgo(id, 170_000);
    expect((await heartbeatOf(id)).api_heartbeat_state).toBe('offline');

    // Below the server minimum: raised to it; not a number: ignored.
    await db.query(`UPDATE "device_config_variable" SET "value" = '1000' WHERE "device" = $1`, [
      id,
    ]);
    expect(await intervalAfterContact()).toBe(10_000);
    await db.query(`UPDATE "device_config_variable" SET "value" = 'soon' WHERE "device" = $1`, [
      id,
    ]);
    expect(await intervalAfterContact()).toBe(120_000);
  });

  it('filters on the computed fields like on columns, and never touches modified_at', async () => {
    const online = await newDevice('filter-online');
    const offline = await newDevice('filter-offline');
    const modifiedAt = async (id: number): Promise<Date | undefined> =>
      (
        await db.query<{ at: Date }>('SELECT "modified_at" AS "at" FROM "device" WHERE "id" = $1', [
          id,
        ])
      ).rows[0]?.at;
    const before = await modifiedAt(online);
    await contact(online, new Date());
    await contact(offline, new Date());
    await lastContactAgo(offline, minutes(60));
    const response = await api.get(
      `/device?$select=device_name&$filter=startswith(device_name,'filter-') and is_online eq true and api_heartbeat_state eq 'online'`,
      'watcher',
    );
    expect(response.body).toEqual({ d: [{ device_name: 'filter-online' }] });
    // A heartbeat is not a modification.
    expect(await modifiedAt(online)).toEqual(before);
  });
});
