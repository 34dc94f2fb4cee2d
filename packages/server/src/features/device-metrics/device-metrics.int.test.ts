import type { MetricHistory } from '@flotilla/shared/device-metrics/metric-history';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { registerDeviceState } from '../device-state/register-device-state.js';
import { createDeviceContacts } from '../heartbeat/device-contacts.js';
import { metricSweepIntervalMs, registerDeviceMetrics } from './register-device-metrics.js';

const hour = 3_600_000;
const minute = 60_000;

describe('device metric history', () => {
  let db: Database;
  let app: FastifyInstance;
  let ctx: AppContext;
  let clock = new Date('2033-03-01T12:00:00Z');
  let fleet: fx.FleetFixture;
  let observerKey: string;
  let outsiderKey: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    ctx = createTestContext(db, {
      now: () => clock,
      config: { metricsRetentionHours: 2 },
      contacts: createDeviceContacts(db, { metricsRetentionMs: 2 * hour }),
    });
    app = await createTestApp(ctx, registerDeviceMetrics, registerDeviceState);
    fleet = await fx.createFleet(db, await fx.createOrganization(db, 'Metered'), 'Gauges');
    const observer = await fx.createUser(db, 'metrics-observer');
    await fx.addFleetMember(db, observer.userId, fleet.id, 'observer');
    observerKey = await createApiKey(db, observer.actorId, { name: 'obs' });
    const outsider = await fx.createUser(db, 'metrics-outsider');
    outsiderKey = await createApiKey(db, outsider.actorId, { name: 'out' });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  // A state report's readings at the fake clock's time, written as the heartbeat batch does.
  const report = async (deviceId: number, cpu: number, memory = 100): Promise<void> => {
    ctx.contacts.record(deviceId, clock, {
      cpu_usage: cpu,
      cpu_temp: 40,
      memory_usage: memory,
      memory_total: 1000,
      storage_usage: 5,
      storage_total: 50,
    });
    await ctx.contacts.flush();
  };
  const advance = (ms: number): void => {
    clock = new Date(clock.getTime() + ms);
  };
  const read = async (uuid: string, query = '', key = observerKey) => {
    const response = await app.inject({
      method: 'GET',
      url: `/device/v2/${uuid}/metrics${query}`,
      headers: { authorization: `Bearer ${key}` },
    });
    // Refusals are plain text, as on the rest of the API.
    const ok = response.statusCode === 200;
    return {
      status: response.statusCode,
      body: ok ? response.json<MetricHistory>() : { since: '', until: '', points: [] },
      text: response.body,
    };
  };
  const storedTimes = async (deviceId: number): Promise<string[]> =>
    (
      await db.query<{ at: Date }>(
        `SELECT "at" FROM "device_metric_sample" WHERE "device" = $1 ORDER BY "at"`,
        [deviceId],
      )
    ).rows.map((row) => row.at.toISOString());

  it('records one point per metrics interval from the batched reports, oldest first', async () => {
    const device = await fx.createDevice(db, fleet.id, 'recorded');
    const start = clock.toISOString();
    await report(device.id, 10);
    // Within the metrics interval: the reading is not kept (nor does it replace the point).
    advance(20_000);
    await report(device.id, 99);
    advance(minute);
    await report(device.id, 30, 300);
    const { status, body } = await read(device.uuid);
    expect(status).toBe(200);
    expect(body.until).toBe(clock.toISOString());
    expect(body.points.map((point) => [point.at, point.cpu_usage, point.memory_usage])).toEqual([
      [start, 10, 100],
      [clock.toISOString(), 30, 300],
    ]);
    expect(body.points[0]).toMatchObject({ cpu_temp: 40, memory_total: 1000, storage_total: 50 });
  });

  it('keeps the readings a device sends in its state report, which it may read back', async () => {
    const device = await fx.createDevice(db, fleet.id, 'reporting');
    const deviceKey = await createApiKey(db, device.actorId, { name: 'device' });
    advance(hour);
    const response = await app.inject({
      method: 'PATCH',
      url: '/device/v3/state',
      headers: { authorization: `Bearer ${deviceKey}` },
      payload: {
        [device.uuid]: { cpu_usage: 42, cpu_temp: 51, memory_usage: 700, memory_total: 900 },
      },
    });
    expect(response.statusCode).toBe(200);
    await ctx.contacts.flush();
    const { status, body } = await read(device.uuid, '', deviceKey);
    expect(status).toBe(200);
    expect(body.points).toEqual([
      {
        at: clock.toISOString(),
        cpu_usage: 42,
        cpu_temp: 51,
        memory_usage: 700,
        memory_total: 900,
        storage_usage: null,
        storage_total: null,
      },
    ]);
  });

  it('writes the readings of many devices in the one statement of the contact batch', async () => {
    const first = await fx.createDevice(db, fleet.id, 'batch-a');
    const second = await fx.createDevice(db, fleet.id, 'batch-b');
    advance(hour);
    let statements = 0;
    const counted = createDeviceContacts(
      {
        query: (sql, params) => {
          statements += 1;
          return db.query(sql, params);
        },
      },
      { metricsRetentionMs: 2 * hour },
    );
    counted.record(first.id, clock, { cpu_usage: 1 });
    counted.record(second.id, clock, { cpu_usage: 2 });
    await counted.flush();
    expect(statements).toBe(1);
    expect(await storedTimes(first.id)).toEqual([clock.toISOString()]);
    expect(await storedTimes(second.id)).toEqual([clock.toISOString()]);
  });

  it('drops readings older than the retention when a device reports', async () => {
    const device = await fx.createDevice(db, fleet.id, 'trimmed');
    advance(hour);
    const oldest = clock.toISOString();
    await report(device.id, 1);
    advance(hour);
    const middle = clock.toISOString();
    await report(device.id, 2);
    expect(await storedTimes(device.id)).toEqual([oldest, middle]);
    advance(hour + 1);
    await report(device.id, 3);
    // Two hours kept: the first reading is now older than that.
    expect(await storedTimes(device.id)).toEqual([middle, clock.toISOString()]);
  });

  it('sweeps every hour the readings of devices that stopped reporting', async () => {
    const silent = await fx.createDevice(db, fleet.id, 'silent');
    const active = await fx.createDevice(db, fleet.id, 'active');
    advance(hour);
    const silentAt = clock.toISOString();
    await report(silent.id, 1);
    advance(2 * hour);
    await report(active.id, 2);
    const tasks: { task: () => void; ms: number }[] = [];
    const swept = await createTestApp(ctx, (instance, context) =>
      registerDeviceMetrics(instance, context, {
        schedule: (task, ms) => {
          tasks.push({ task, ms });
          return () => undefined;
        },
      }),
    );
    try {
      expect(tasks.map((entry) => entry.ms)).toEqual([metricSweepIntervalMs]);
      expect(await storedTimes(silent.id)).toEqual([silentAt]);
      advance(1);
      tasks[0]?.task();
      // The next sweep is scheduled once this one is done.
      await vi.waitFor(() => expect(tasks).toHaveLength(2));
      expect(await storedTimes(silent.id)).toEqual([]);
      expect(await storedTimes(active.id)).toHaveLength(1);
    } finally {
      await swept.close();
    }
  });

  it('averages a long range into at most the asked number of points', async () => {
    const device = await fx.createDevice(db, fleet.id, 'averaged');
    advance(hour);
    const since = new Date(clock.getTime() - 1).toISOString();
    for (const cpu of [10, 20, 30, 40]) {
      await report(device.id, cpu);
      advance(minute);
    }
    const { status, body } = await read(
      device.uuid,
      `?since=${since}&until=${new Date(clock.getTime() - 1).toISOString()}&points=2`,
    );
    expect(status).toBe(200);
    expect(body.points.map((point) => point.cpu_usage)).toEqual([15, 35]);
  });

  it('answers 401 to a caller who may not read the device, as for an unknown one', async () => {
    const device = await fx.createDevice(db, fleet.id, 'private');
    await report(device.id, 5);
    expect((await read(device.uuid, '', outsiderKey)).status).toBe(401);
    expect((await read('0'.repeat(32))).status).toBe(401);
    const anonymous = await app.inject({ method: 'GET', url: `/device/v2/${device.uuid}/metrics` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses unbounded or malformed ranges with a 400 that says why', async () => {
    const device = await fx.createDevice(db, fleet.id, 'bounded');
    const refusal = async (query: string) => {
      const { status, text } = await read(device.uuid, query);
      expect(status).toBe(400);
      return text;
    };
    expect(await refusal('?points=0')).toMatch(/points must be between 1 and 500/);
    expect(await refusal('?points=501')).toMatch(/points must be between 1 and 500/);
    expect(await refusal('?points=many')).toMatch(/points: must be a whole number/);
    expect(await refusal('?since=yesterday')).toMatch(/since must be milliseconds or an ISO date/);
    const now = clock.getTime();
    expect(await refusal(`?since=${now}&until=${now - 1}`)).toMatch(/since must be before until/);
    expect(await refusal(`?since=${now - 3 * hour}&until=${now}`)).toMatch(/at most 2 hours/);
  });
});
