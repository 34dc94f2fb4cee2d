import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database, Queryable, SqlValue } from '../../infra/db/database.js';
import type { NotificationBus } from '../../infra/db/notification-bus.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createTestApp,
  createTestContext,
  createTestNotificationBus,
} from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { waitFor } from '../../test-support/wait-for.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { registerDeviceState } from './register-device-state.js';
import { createStateReportCache, type StateReportCache } from './state-report-cache.js';
import { createStateReportWriter, type StateReportWriter } from './state-report-writer.js';

// Reports of many devices share one statement and one commit (state-report-writer.ts). What
// must hold: a report is acknowledged only after its commit (a commit that fails answers an
// error, and the report is not cached as applied), one device's reports apply in arrival order
// (the later of two in one batch wins), and a report the database refuses fails alone.

// A commit fails for a device whose ip address is this: a deferred constraint trigger raises
// at commit time, after the batch's statement itself succeeded.
const failAtCommit = '203.0.113.66';

describe('state reports written in batches', () => {
  let db: Database;
  let bus: NotificationBus;
  let cache: StateReportCache;
  let fleet: fx.FleetFixture;
  const statements: string[] = [];
  // The database, counting the batch statements.
  let counted: Queryable;

  beforeAll(async () => {
    db = await createTestDatabase();
    bus = createTestNotificationBus(db);
    await bus.start();
    cache = createStateReportCache(bus);
    await waitFor('the bus to listen', () => bus.isLive());
    counted = {
      query: (sql, params, options) => {
        if (sql.includes('flotilla_apply_state_reports')) statements.push(sql);
        return db.query(sql, params, options);
      },
    };
    await db.query(`
      CREATE FUNCTION test_fail_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW."ip_address" = '${failAtCommit}' THEN
          RAISE EXCEPTION 'the commit failed';
        END IF;
        RETURN NULL;
      END $$;
      CREATE CONSTRAINT TRIGGER "test_fail_at_commit" AFTER UPDATE ON "device"
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_fail_at_commit();`);
    const org = await fx.createOrganization(db, 'Batches');
    fleet = await fx.createFleet(db, org, 'Batched');
  });
  afterAll(async () => {
    cache.close();
    await bus.stop();
    await db.close();
  });

  const ipOf = async (id: number): Promise<unknown> => {
    const { rows } = await db.query<{ ip: unknown }>(
      'SELECT "ip_address" AS "ip" FROM "device" WHERE "id" = $1',
      [id],
    );
    return rows[0]?.ip;
  };

  const reportOf = (device: fx.DeviceFixture, columns: Record<string, SqlValue>) => ({
    device,
    columns,
    apps: undefined,
    agentProfile: undefined,
    now: new Date('2031-01-01T00:00:00Z'),
  });

  const newWriter = (): StateReportWriter => createStateReportWriter(counted, cache);

  it('writes the reports of many devices in one statement', async () => {
    const writer = newWriter();
    const devices = await Promise.all(
      [1, 2, 3].map((n) => fx.createDevice(db, fleet.id, `many-${n}`)),
    );
    statements.length = 0;
    const own = await Promise.all(
      devices.map((device, n) => writer.apply(reportOf(device, { ip_address: `10.0.0.${n}` }))),
    );
    expect(own).toEqual([true, true, true]);
    expect(statements).toHaveLength(1);
    expect(await Promise.all(devices.map((device) => ipOf(device.id)))).toEqual([
      '10.0.0.0',
      '10.0.0.1',
      '10.0.0.2',
    ]);
  });

  it('applies two reports of one device in one batch in order: the later wins', async () => {
    const writer = newWriter();
    const device = await fx.createDevice(db, fleet.id, 'ordered');
    const other = await fx.createDevice(db, fleet.id, 'between');
    statements.length = 0;
    // A higher id between them: the batch is sorted by device, the device's reports are not.
    await Promise.all([
      writer.apply(reportOf(other, { ip_address: '10.1.0.9' })),
      writer.apply(reportOf(device, { ip_address: '10.1.0.1', status: 'Downloading' })),
      writer.apply(reportOf(device, { ip_address: '10.1.0.2', status: 'Idle' })),
    ]);
    expect(statements).toHaveLength(1);
    const { rows } = await db.query<{ ip: string; status: string }>(
      'SELECT "ip_address" AS "ip", "status" FROM "device" WHERE "id" = $1',
      [device.id],
    );
    expect(rows[0]).toEqual({ ip: '10.1.0.2', status: 'Idle' });
  });

  // A release of the fleet with one service ('main') and its image; the apps section a device
  // reports for it, the service in `status`.
  const withRelease = async (commit: string) => {
    const one = async (sql: string, params: SqlValue[]): Promise<number> => {
      const { rows } = await db.query<{ id: number }>(sql, params);
      if (rows[0] === undefined) throw new Error(`nothing returned: ${sql}`);
      return rows[0].id;
    };
    const release = await fx.createRelease(db, fleet.id, commit);
    const service = await one(
      'INSERT INTO "service" ("application", "service_name") VALUES ($1, $2) RETURNING "id"',
      [fleet.id, `main-${commit}`],
    );
    const image = await one(
      `INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "status")
       VALUES ($1, 'registry.example/v2/x', 'success') RETURNING "id"`,
      [service],
    );
    await db.query('INSERT INTO "release_image" ("image", "is_part_of__release") VALUES ($1, $2)', [
      image,
      release,
    ]);
    const apps = (status: string) => ({
      [fleet.uuid]: {
        release_uuid: commit,
        releases: { [commit]: { services: { [`main-${commit}`]: { image: 'x', status } } } },
      },
    });
    return { release, image, apps };
  };
  const installsOf = async (deviceId: number) => {
    const { rows } = await db.query<{ image: number; status: string }>(
      'SELECT "installs__image" AS "image", "status" FROM "image_install" WHERE "device" = $1',
      [deviceId],
    );
    return rows;
  };

  it('writes the installs of every device of a batch, and the digest a repeat is checked against', async () => {
    const writer = newWriter();
    const { image, apps } = await withRelease('a1'.repeat(16));
    const devices = await Promise.all(
      [1, 2].map((n) => fx.createDevice(db, fleet.id, `installs-${n}`)),
    );
    statements.length = 0;
    await Promise.all(
      devices.map((device, n) =>
        writer.apply({ ...reportOf(device, {}), apps: apps(n === 0 ? 'Running' : 'Downloading') }),
      ),
    );
    expect(statements).toHaveLength(1);
    expect(await installsOf(devices[0]?.id ?? 0)).toEqual([{ image, status: 'Running' }]);
    expect(await installsOf(devices[1]?.id ?? 0)).toEqual([{ image, status: 'Downloading' }]);
    // The digest written for the batch is the one a repeat of the report computes (else a
    // repeat would write the installs again every time).
    const { rows } = await db.query<{ same: boolean }>(
      `SELECT "applied_apps_digest" = split_part("applied_apps_digest", ':', 1) || ':'
                || flotilla_installs_digest("id") AS "same"
         FROM "device" WHERE "id" = ANY($1::integer[])`,
      [devices.map((device) => device.id)],
    );
    expect(rows).toEqual([{ same: true }, { same: true }]);
  });

  it('applies the installs of two reports of one device in one batch in order', async () => {
    const writer = newWriter();
    const { release, image, apps } = await withRelease('b2'.repeat(16));
    const device = await fx.createDevice(db, fleet.id, 'installs-ordered');
    statements.length = 0;
    await Promise.all([
      writer.apply({ ...reportOf(device, { status: 'Downloading' }), apps: apps('Downloading') }),
      writer.apply({ ...reportOf(device, { status: 'Idle' }), apps: apps('Running') }),
    ]);
    expect(statements).toHaveLength(1);
    expect(await installsOf(device.id)).toEqual([{ image, status: 'Running' }]);
    const { rows } = await db.query<{ status: string; running: number }>(
      'SELECT "status", "is_running__release" AS "running" FROM "device" WHERE "id" = $1',
      [device.id],
    );
    expect(rows[0]).toEqual({ status: 'Idle', running: release });
  });

  it('answers an error when the commit fails, and the batch mates of the refused report still apply', async () => {
    const writer = newWriter();
    const failing = await fx.createDevice(db, fleet.id, 'failing');
    const fine = await fx.createDevice(db, fleet.id, 'fine');
    const [refused, applied] = await Promise.allSettled([
      writer.apply(reportOf(failing, { ip_address: failAtCommit })),
      writer.apply(reportOf(fine, { ip_address: '10.2.0.1' })),
    ]);
    expect(refused?.status).toBe('rejected');
    expect(applied).toEqual({ status: 'fulfilled', value: true });
    expect(await ipOf(failing.id)).toBeNull();
    expect(await ipOf(fine.id)).toBe('10.2.0.1');
    // Not taken for applied: the same report again goes to the database (and fails again).
    await bus.sync();
    await expect(writer.apply(reportOf(failing, { ip_address: failAtCommit }))).rejects.toThrow(
      /commit failed/,
    );
  });

  it('tries a batch again after a deadlock rolled it back', async () => {
    const device = await fx.createDevice(db, fleet.id, 'deadlocked');
    let deadlocks = 1;
    const flaky: Queryable = {
      query: (sql, params, options) => {
        if (sql.includes('flotilla_apply_state_reports') && deadlocks > 0) {
          deadlocks -= 1;
          return Promise.reject(Object.assign(new Error('deadlock detected'), { code: '40P01' }));
        }
        return db.query(sql, params, options);
      },
    };
    const writer = createStateReportWriter(flaky, cache);
    expect(await writer.apply(reportOf(device, { ip_address: '10.4.0.1' }))).toBe(true);
    expect(deadlocks).toBe(0);
    expect(await ipOf(device.id)).toBe('10.4.0.1');
  });

  it('answers false, writing nothing, for a uuid that is not the device id’s', async () => {
    const writer = newWriter();
    const device = await fx.createDevice(db, fleet.id, 'impostor');
    const own = await writer.apply({
      ...reportOf(device, { ip_address: '10.3.0.1' }),
      device: { id: device.id, uuid: 'not-its-uuid' },
    });
    expect(own).toBe(false);
    expect(await ipOf(device.id)).toBeNull();
  });
});

describe('state reports: PATCH /device/v3/state when the commit fails', () => {
  let db: Database;
  let app: FastifyInstance;
  let ctx: AppContext;

  beforeAll(async () => {
    db = await createTestDatabase();
    ctx = createTestContext(db);
    app = await createTestApp(ctx, registerDeviceState);
    await db.query(`
      CREATE FUNCTION test_fail_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the commit failed';
      END $$;
      CREATE CONSTRAINT TRIGGER "test_fail_at_commit" AFTER UPDATE OF "ip_address" ON "device"
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_fail_at_commit();`);
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('is not acknowledged: an error status, not 200, and nothing written', async () => {
    const org = await fx.createOrganization(db, 'Failing');
    const fleet = await fx.createFleet(db, org, 'Failing');
    const device = await fx.createDevice(db, fleet.id, 'failing');
    const key = await createApiKey(db, device.actorId, { name: 'device' });
    const response = await app.inject({
      method: 'PATCH',
      url: '/device/v3/state',
      headers: { authorization: `Bearer ${key}` },
      payload: { [device.uuid]: { ip_address: '10.9.0.1' } },
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(500);
    const { rows } = await db.query<{ ip: unknown }>(
      'SELECT "ip_address" AS "ip" FROM "device" WHERE "id" = $1',
      [device.id],
    );
    expect(rows[0]?.ip).toBeNull();
  });
});
