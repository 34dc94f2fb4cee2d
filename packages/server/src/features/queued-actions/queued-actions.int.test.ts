import { randomBytes } from 'node:crypto';
import type { QueuedAction, RunOutcome } from '@flotilla/shared/devices/queued-actions';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../infra/db/database.js';
import { composeServer } from '../../server.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { connectFakeDevice, type FakeDevice } from '../../test-support/fake-device-client.js';
import { waitFor, waitForValue } from '../../test-support/wait-for.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import type { Cloudlink } from '../cloudlink/register-cloudlink.js';
import { createDelivery } from './deliver-queued.js';
import { enqueue } from './queue-store.js';

const hourMs = 3_600_000;
let db: Database;
let ctx: AppContext;
let app: FastifyInstance;
let cloudlink: Cloudlink;
let url: string;
let fleet: fx.FleetFixture;
let operatorKey: string;
let observerKey: string;
// The server's clock: the tests move it forward past expiries.
let clock = new Date('2026-03-01T10:00:00Z');
const connected: FakeDevice[] = [];

type Device = fx.DeviceFixture & { key: string };
const newDevice = async (): Promise<Device> => {
  const device = await fx.createDevice(db, fleet.id, `q-${randomBytes(3).toString('hex')}`);
  return { ...device, key: await createApiKey(db, device.actorId, { name: 'device key' }) };
};

const connect = async (device: Device): Promise<FakeDevice> => {
  const fake = await connectFakeDevice(url, device.key, {
    uuid: device.uuid,
    answer: (request) =>
      request.action === 'shutdown'
        ? { status: 423, body: 'Updates are locked' }
        : { status: 200, body: 'OK' },
  });
  connected.push(fake);
  await waitFor(
    'the session',
    async () => (await cloudlink.connectedDevices([device.id])).size > 0,
  );
  return fake;
};

const disconnect = async (fake: FakeDevice, device: Device): Promise<void> => {
  await fake.close();
  await waitFor(
    'the session to end',
    async () => (await cloudlink.connectedDevices([device.id])).size === 0,
  );
};

const call = (method: 'GET' | 'POST', path: string, key: string, payload?: object) =>
  app.inject({
    method,
    url: path,
    headers: { authorization: `Bearer ${key}` },
    ...(payload === undefined ? {} : { payload }),
  });

const run = async (payload: object, key = operatorKey): Promise<RunOutcome[]> => {
  const response = await call('POST', '/device-actions/v1/run', key, payload);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<RunOutcome[]>();
};

const queueOf = async (device: Device, key = operatorKey): Promise<QueuedAction[]> => {
  const response = await call('GET', `/device-actions/v1/queued?deviceId=${device.id}`, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<QueuedAction[]>();
};

const userKey = async (name: string, role: string): Promise<string> => {
  const user = await fx.createUser(db, name);
  await fx.addFleetMember(db, user.userId, fleet.id, role);
  return createApiKey(db, user.actorId, { name: `${name} key` });
};

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = createTestContext(db, { now: () => clock });
  // The sweep is not waited on: delivery on connect and the expiry at each read are what is tested.
  ({ app, cloudlink } = composeServer(ctx, {
    cloudlink: { actionTimeoutMs: 2_000, nodeHeartbeatMs: 500 },
    queuedActions: { sweepIntervalMs: 3_600_000 },
  }));
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  const organization = await fx.createOrganization(db, 'Queuers');
  fleet = await fx.createFleet(db, organization, 'Queued');
  operatorKey = await userKey('q-operator', 'operator');
  observerKey = await userKey('q-observer', 'observer');
});

afterAll(async () => {
  await Promise.all(connected.map((fake) => fake.close()));
  await app?.close();
  await db?.close();
});

describe('actions queued for offline devices', () => {
  it('queues for an offline device and delivers in order when it reconnects', async () => {
    const device = await newDevice();
    const offline = await run({ action: 'reboot', deviceIds: [device.id] });
    // Without `queue`, balena's answer: the device is offline, nothing queued.
    expect(offline).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        statusCode: 503,
        message: 'No online device(s) found',
      }),
    ]);
    expect(await queueOf(device)).toEqual([]);
    const queue = { expiresInHours: 24 };
    const [first] = await run({ action: 'blink', deviceIds: [device.id], queue });
    await run({ action: 'reboot', deviceIds: [device.id], params: { force: true }, queue });
    await run({ action: 'shutdown', deviceIds: [device.id], queue });
    expect(first).toMatchObject({ outcome: 'queued', queuedActionId: expect.any(Number) });
    const waiting = await queueOf(device);
    expect(waiting.map((entry) => [entry.action, entry.status])).toEqual([
      ['shutdown', 'queued'],
      ['reboot', 'queued'],
      ['blink', 'queued'],
    ]);
    expect(waiting[0]?.expiresAt).toBe(new Date(clock.getTime() + 24 * hourMs).toISOString());

    const fake = await connect(device);
    const history = await waitForValue(
      'the queue to be delivered',
      () => queueOf(device),
      (entries) =>
        entries.every((entry) => entry.status !== 'queued' && entry.status !== 'delivering'),
    );
    expect(fake.received.map((request) => [request.action, request.params])).toEqual([
      ['blink', {}],
      ['reboot', { force: true }],
      ['shutdown', { force: false }],
    ]);
    expect(
      history.map((entry) => [entry.action, entry.status, entry.resultStatus, entry.message]),
    ).toEqual([
      ['shutdown', 'failed', 423, 'Updates are locked'],
      ['reboot', 'done', 200, 'OK'],
      ['blink', 'done', 200, 'OK'],
    ]);
    expect(history[0]?.finishedAt).toBe(clock.toISOString());
    await disconnect(fake, device);
  });

  it('expires an action whose device stayed away past its expiry', async () => {
    const device = await newDevice();
    await run({ action: 'reboot', deviceIds: [device.id], queue: { expiresInHours: 1 } });
    clock = new Date(clock.getTime() + 2 * hourMs);
    const [expired] = await queueOf(device);
    expect(expired).toMatchObject({
      status: 'expired',
      message: 'Expired before the device came online',
    });
    await run({ action: 'blink', deviceIds: [device.id], queue: { expiresInHours: 1 } });
    const fake = await connect(device);
    await waitForValue(
      'the blink',
      () => queueOf(device),
      (entries) => entries[0]?.status === 'done',
    );
    expect(fake.received.map((request) => request.action)).toEqual(['blink']);
    await disconnect(fake, device);
  });

  it('cancels a queued action, which is then never delivered', async () => {
    const device = await newDevice();
    const [queued] = await run({
      action: 'reboot',
      deviceIds: [device.id],
      queue: { expiresInHours: 6 },
    });
    await run({ action: 'blink', deviceIds: [device.id], queue: { expiresInHours: 6 } });
    const id = queued?.queuedActionId ?? 0;
    // Cancelling needs the action's own right: an observer gets nothing.
    const refused = await call('POST', `/device-actions/v1/queued/${id}/cancel`, observerKey);
    expect(refused.statusCode).toBe(401);
    const cancelled = await call('POST', `/device-actions/v1/queued/${id}/cancel`, operatorKey);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ id, status: 'cancelled' });
    const again = await call('POST', `/device-actions/v1/queued/${id}/cancel`, operatorKey);
    expect([again.statusCode, again.body]).toEqual([
      409,
      'The action is no longer queued (cancelled)',
    ]);
    const fake = await connect(device);
    await waitForValue(
      'the blink',
      () => queueOf(device),
      (entries) => entries[0]?.status === 'done',
    );
    expect(fake.received.map((request) => request.action)).toEqual(['blink']);
    await disconnect(fake, device);
  });

  it('reports each device of a batch with online and offline devices', async () => {
    const online = await newDevice();
    const offline = await newDevice();
    const fake = await connect(online);
    const outcomes = await run({
      action: 'restart-services',
      deviceIds: [online.id, offline.id, 987_654],
      queue: { expiresInHours: 24 },
    });
    expect(outcomes.map((outcome) => [outcome.deviceId, outcome.outcome])).toEqual([
      [online.id, 'done'],
      [offline.id, 'queued'],
      [987_654, 'failed'],
    ]);
    expect(fake.received).toMatchObject([
      { action: 'restart-services', params: { appId: fleet.id } },
    ]);
    const fleetQueue = await call(
      'GET',
      `/device-actions/v1/queued?fleetId=${fleet.id}`,
      operatorKey,
    );
    expect(fleetQueue.json<QueuedAction[]>()).toContainEqual(
      expect.objectContaining({
        deviceId: offline.id,
        action: 'restart-services',
        status: 'queued',
      }),
    );
    await disconnect(fake, online);
  });

  it('the sweep delivers what reached an online device past its connection, and a stale claim', async () => {
    const device = await newDevice();
    const fake = await connect(device);
    // Queued after the device's connection was served (a race the API cannot make on purpose):
    // one action waiting, one a stopped process claimed 20 minutes ago and never finished.
    const expiresAt = new Date(clock.getTime() + hourMs);
    const entry = { deviceId: device.id, params: {}, now: clock, expiresAt, actorId: null };
    const waiting = await enqueue(db, { ...entry, action: 'blink' }, 20);
    const stale = await enqueue(db, { ...entry, action: 'reboot' }, 20);
    if (waiting === undefined || stale === undefined) throw new Error('nothing queued');
    await db.query(
      `UPDATE "queued_device_action" SET "status" = 'delivering', "claimed_at" = $2 WHERE "id" = $1`,
      [stale.id, new Date(clock.getTime() - 20 * 60_000)],
    );
    expect(fake.received).toEqual([]);
    const delivery = createDelivery(ctx, cloudlink, app.log);
    await delivery.sweep();
    await delivery.settled();
    expect(fake.received.map((request) => request.action)).toEqual(['blink', 'reboot']);
    const history = await queueOf(device);
    expect(history.map((item) => [item.id, item.status])).toEqual([
      [stale.id, 'done'],
      [waiting.id, 'done'],
    ]);
    // Swept again: nothing is sent twice.
    await delivery.sweep();
    await delivery.settled();
    expect(fake.received).toHaveLength(2);
    await disconnect(fake, device);
  });

  it('refuses queueing to a role without the action right, and nothing is queued', async () => {
    const device = await newDevice();
    const response = await call('POST', '/device-actions/v1/run', observerKey, {
      action: 'reboot',
      deviceIds: [device.id],
      queue: { expiresInHours: 24 },
    });
    expect(response.statusCode).toBe(401);
    expect(await queueOf(device)).toEqual([]);
    // The observer may still read the device's queue (it can read the device).
    expect(await queueOf(device, observerKey)).toEqual([]);
  });

  it('validates the request', async () => {
    const device = await newDevice();
    const cases: [object, string][] = [
      [{ action: 'ping', deviceIds: [device.id] }, 'action'],
      [{ action: 'reboot', deviceIds: [] }, 'deviceIds must name at least one device'],
      [
        { action: 'reboot', deviceIds: [device.id, device.id] },
        'deviceIds must not repeat a device',
      ],
      [
        { action: 'reboot', deviceIds: [device.id], queue: { expiresInHours: 0 } },
        'queue.expiresInHours',
      ],
      [
        { action: 'stop-service', deviceIds: [device.id] },
        'params.imageId or params.serviceName is required',
      ],
    ];
    for (const [payload, message] of cases) {
      const response = await call('POST', '/device-actions/v1/run', operatorKey, payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.body).toContain(message);
    }
    const noTarget = await call('GET', '/device-actions/v1/queued', operatorKey);
    expect(noTarget.statusCode).toBe(400);
  });
});
