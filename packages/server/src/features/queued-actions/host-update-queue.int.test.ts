import { randomBytes } from 'node:crypto';
import type { QueuedAction, RunOutcome } from '@flotilla/shared/devices/queued-actions';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { composeServer } from '../../server.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { connectFakeDevice, type FakeDevice } from '../../test-support/fake-device-client.js';
import { waitFor, waitForValue } from '../../test-support/wait-for.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import type { Cloudlink } from '../cloudlink/register-cloudlink.js';
import { catalogueFile } from '../host-os/catalogue-entry.js';
import { importCatalogue, listReleases } from '../host-os/catalogue-store.js';

// OS and supervisor updates queued for offline devices: the release is set at once, and an
// expiry or a cancellation puts the previous one back unless someone changed it since.

const hourMs = 3_600_000;
let db: Database;
let app: FastifyInstance;
let cloudlink: Cloudlink;
let url: string;
let fleet: fx.FleetFixture;
let operatorKey: string;
let safeOperatorKey: string;
let observerKey: string;
let clock = new Date('2026-03-01T10:00:00Z');
const connected: FakeDevice[] = [];
const release = new Map<string, number>();

const id = (version: string): number => {
  const found = release.get(version);
  if (found === undefined) throw new Error(`no catalogue release ${version}`);
  return found;
};

type Device = fx.DeviceFixture & { key: string };
// An offline device running balenaOS 6.0.13 (prod) and supervisor 16.2.0.
const newDevice = async (): Promise<Device> => {
  const device = await fx.createDevice(db, fleet.id, `h-${randomBytes(3).toString('hex')}`);
  await db.query(
    `UPDATE "device" SET "os_version" = 'balenaOS 6.0.13', "os_variant" = 'prod',
            "supervisor_version" = '16.2.0' WHERE "id" = $1`,
    [device.id],
  );
  return { ...device, key: await createApiKey(db, device.actorId, { name: 'device key' }) };
};

type Pins = { os: number | null; supervisor: number | null };
const pinsOf = async (device: Device): Promise<Pins> => {
  const { rows } = await db.query<Pins>(
    `SELECT "should_be_operated_by__release" AS "os",
            "should_be_managed_by__release" AS "supervisor"
       FROM "device" WHERE "id" = $1`,
    [device.id],
  );
  const [row] = rows;
  if (row === undefined) throw new Error(`no device ${device.id}`);
  return row;
};

const connect = async (device: Device): Promise<FakeDevice> => {
  const fake = await connectFakeDevice(url, device.key, {
    uuid: device.uuid,
    answer: () => ({ status: 200, body: 'OK' }),
  });
  connected.push(fake);
  await waitFor(
    'the session',
    async () => (await cloudlink.connectedDevices([device.id])).size > 0,
  );
  return fake;
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

const queueOsUpdate = (device: Device, targetVersion: string, expiresInHours = 24) =>
  run({
    action: 'os-update',
    deviceIds: [device.id],
    params: { targetVersion },
    queue: { expiresInHours },
  });

const queueOf = async (device: Device): Promise<QueuedAction[]> => {
  const response = await call(
    'GET',
    `/device-actions/v1/queued?deviceId=${device.id}`,
    operatorKey,
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json<QueuedAction[]>();
};

const cancel = async (queuedActionId: number | null | undefined) => {
  const response = await call(
    'POST',
    `/device-actions/v1/queued/${queuedActionId ?? 0}/cancel`,
    operatorKey,
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json<QueuedAction>();
};

const auditOf = async (device: Device) => {
  const { rows } = await db.query<{ resource: string; changes: { reverted?: boolean } }>(
    `SELECT "resource", "changes" FROM "audit_log_entry"
      WHERE "device" = $1 AND "resource" LIKE 'queued %' ORDER BY "id"`,
    [device.id],
  );
  return rows.map((row) => [row.resource, row.changes.reverted]);
};

const userKey = async (name: string, role: string): Promise<string> => {
  const user = await fx.createUser(db, name);
  await fx.addFleetMember(db, user.userId, fleet.id, role);
  return createApiKey(db, user.actorId, { name: `${name} key` });
};

beforeAll(async () => {
  db = await createTestDatabase();
  const ctx = createTestContext(db, { now: () => clock });
  ({ app, cloudlink } = composeServer(ctx, {
    cloudlink: { actionTimeoutMs: 2_000, nodeHeartbeatMs: 500 },
    queuedActions: { sweepIntervalMs: 3_600_000 },
  }));
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  const organization = await fx.createOrganization(db, 'Host queuers');
  fleet = await fx.createFleet(db, organization, 'Host queue', { deviceType: 'raspberrypi4-64' });
  operatorKey = await userKey('hq-operator', 'operator');
  safeOperatorKey = await userKey('hq-safe-operator', 'safe-operator');
  observerKey = await userKey('hq-observer', 'observer');
  const file = catalogueFile.parse({
    releases: [
      ...['6.0.13', '6.1.0', '6.2.0'].map((version) => ({
        kind: 'os',
        deviceType: 'raspberrypi4-64',
        version,
        variant: 'prod',
      })),
      { kind: 'supervisor', cpuArchitecture: 'aarch64', version: '17.1.4' },
    ],
  });
  await db.transaction((tx) => importCatalogue(tx, file));
  for (const entry of await listReleases(db)) release.set(entry.version, entry.id);
});

afterAll(async () => {
  await Promise.all(connected.map((fake) => fake.close()));
  await app?.close();
  await db?.close();
});

describe('OS and supervisor updates queued for offline devices', () => {
  it('sets the release at once and is done when the device comes back', async () => {
    const device = await newDevice();
    // Without `queue`, balena's answer for an offline device, and nothing is set.
    const [refused] = await run({
      action: 'os-update',
      deviceIds: [device.id],
      params: { targetVersion: '6.1.0' },
    });
    expect(refused).toMatchObject({ outcome: 'failed', statusCode: 503 });
    expect(await pinsOf(device)).toEqual({ os: id('6.0.13'), supervisor: null });

    const [queued] = await queueOsUpdate(device, '6.1.0');
    expect(queued).toMatchObject({ outcome: 'queued', queuedActionId: expect.any(Number) });
    expect(await pinsOf(device)).toEqual({ os: id('6.1.0'), supervisor: null });
    const [waiting] = await queueOf(device);
    expect(waiting).toMatchObject({
      action: 'os-update',
      status: 'queued',
      params: { releaseId: id('6.1.0'), previousReleaseId: id('6.0.13'), version: '6.1.0' },
    });

    const fake = await connect(device);
    const [done] = await waitForValue(
      'the update to be delivered',
      () => queueOf(device),
      (entries) => entries[0]?.status === 'done',
    );
    expect(done?.message).toBe('The device is online and picks up the OS release on its next poll');
    // Nothing travels over the cloudlink: the device reads the release on its next poll.
    expect(fake.received).toEqual([]);
    expect(await pinsOf(device)).toEqual({ os: id('6.1.0'), supervisor: null });
  });

  it('an online device is updated at once (done, nothing queued)', async () => {
    const device = await newDevice();
    await connect(device);
    const [outcome] = await queueOsUpdate(device, '6.2.0');
    expect(outcome).toMatchObject({ outcome: 'done', queuedActionId: null });
    expect(await pinsOf(device)).toEqual({ os: id('6.2.0'), supervisor: null });
    expect(await queueOf(device)).toEqual([]);
  });

  it('puts the previous release back when the update expires', async () => {
    const device = await newDevice();
    await queueOsUpdate(device, '6.1.0', 1);
    await queueOsUpdate(device, '6.2.0', 1);
    expect(await pinsOf(device)).toEqual({ os: id('6.2.0'), supervisor: null });
    clock = new Date(clock.getTime() + 2 * hourMs);
    const history = await queueOf(device);
    expect(history.map((entry) => [entry.status, entry.message])).toEqual([
      ['expired', 'Expired before the device came online; the previous OS release was put back'],
      ['expired', 'Expired before the device came online; the previous OS release was put back'],
    ]);
    // Both unwound: the device is told to run what it runs.
    expect(await pinsOf(device)).toEqual({ os: id('6.0.13'), supervisor: null });
    expect(await auditOf(device)).toEqual([
      ['queued os-update expired', true],
      ['queued os-update expired', true],
    ]);
  });

  it('puts the previous release back when the update is cancelled', async () => {
    const device = await newDevice();
    await db.query(`UPDATE "device" SET "should_be_operated_by__release" = $2 WHERE "id" = $1`, [
      device.id,
      id('6.1.0'),
    ]);
    const [queued] = await queueOsUpdate(device, '6.2.0');
    expect(await pinsOf(device)).toEqual({ os: id('6.2.0'), supervisor: null });
    const cancelled = await cancel(queued?.queuedActionId);
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      message: 'Cancelled; the previous OS release was put back',
    });
    expect(await pinsOf(device)).toEqual({ os: id('6.1.0'), supervisor: null });
    expect(await auditOf(device)).toEqual([['queued os-update cancelled', true]]);
  });

  it('leaves a release someone changed since alone, and says so', async () => {
    const device = await newDevice();
    const [queued] = await queueOsUpdate(device, '6.1.0');
    // Someone else's choice meanwhile, through /v7.
    const patched = await app.inject({
      method: 'PATCH',
      url: `/v7/device(${device.id})`,
      headers: { authorization: `Bearer ${operatorKey}` },
      payload: { should_be_operated_by__release: id('6.2.0') },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const cancelled = await cancel(queued?.queuedActionId);
    expect(cancelled.message).toBe(
      'Cancelled; the OS release was changed since, so it was left as it is',
    );
    expect(await pinsOf(device)).toEqual({ os: id('6.2.0'), supervisor: null });
    expect(await auditOf(device)).toEqual([['queued os-update cancelled', false]]);
  });

  it('says so when the device comes back to a release changed since', async () => {
    const device = await newDevice();
    await queueOsUpdate(device, '6.1.0');
    const patched = await app.inject({
      method: 'PATCH',
      url: `/v7/device(${device.id})`,
      headers: { authorization: `Bearer ${operatorKey}` },
      payload: { should_be_operated_by__release: id('6.2.0') },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    await connect(device);
    const [done] = await waitForValue(
      'the update to be delivered',
      () => queueOf(device),
      (entries) => entries[0]?.status === 'done',
    );
    expect(done?.message).toBe(
      'The device is online; its OS release was changed since this update was queued',
    );
    expect(await pinsOf(device)).toEqual({ os: id('6.2.0'), supervisor: null });
  });

  it('queues a supervisor update, and a cancellation puts the previous release back', async () => {
    const device = await newDevice();
    const [queued] = await run({
      action: 'supervisor-update',
      deviceIds: [device.id],
      params: { releaseId: id('17.1.4') },
      queue: { expiresInHours: 6 },
    });
    expect(queued).toMatchObject({ outcome: 'queued' });
    expect(await pinsOf(device)).toEqual({ os: id('6.0.13'), supervisor: id('17.1.4') });
    expect((await queueOf(device))[0]?.params).toEqual({
      releaseId: id('17.1.4'),
      previousReleaseId: null,
      version: '17.1.4',
    });
    await cancel(queued?.queuedActionId);
    expect(await pinsOf(device)).toEqual({ os: id('6.0.13'), supervisor: null });
  });

  it('refuses a role without the update permission: nothing set, nothing queued', async () => {
    const device = await newDevice();
    const target = { deviceIds: [device.id], queue: { expiresInHours: 1 } };
    const refusals: [object, string][] = [
      [{ ...target, action: 'os-update', params: { targetVersion: '6.1.0' } }, observerKey],
      // A safe operator may update the OS, not the supervisor.
      [
        { ...target, action: 'supervisor-update', params: { releaseId: id('17.1.4') } },
        safeOperatorKey,
      ],
    ];
    for (const [payload, key] of refusals) {
      const response = await call('POST', '/device-actions/v1/run', key, payload);
      expect(response.statusCode, response.body).toBe(401);
    }
    expect(await pinsOf(device)).toEqual({ os: id('6.0.13'), supervisor: null });
    expect(await queueOf(device)).toEqual([]);
  });

  it('refuses bad input with the reason', async () => {
    const device = await newDevice();
    const queue = { expiresInHours: 1 };
    const cases: [object, string][] = [
      [{ action: 'os-update', deviceIds: [device.id], queue }, 'params.targetVersion is required'],
      [
        { action: 'supervisor-update', deviceIds: [device.id], queue },
        'params.releaseId is required',
      ],
      [
        { action: 'os-update', deviceIds: [device.id], params: { targetVersion: '' }, queue },
        'params.targetVersion',
      ],
    ];
    for (const [payload, message] of cases) {
      const response = await call('POST', '/device-actions/v1/run', operatorKey, payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.body).toContain(message);
    }
    // A version or release the device cannot take fails that device, with the rules' reason.
    const [unknown] = await queueOsUpdate(device, '7.0.0');
    expect(unknown).toMatchObject({
      outcome: 'failed',
      statusCode: 400,
      message: 'No balenaOS 7.0.0 release for device type raspberrypi4-64 in the host OS catalogue',
    });
    const [notSupervisor] = await run({
      action: 'supervisor-update',
      deviceIds: [device.id],
      params: { releaseId: id('6.1.0') },
      queue,
    });
    expect(notSupervisor).toMatchObject({ outcome: 'failed', statusCode: 400 });
    expect(await pinsOf(device)).toEqual({ os: id('6.0.13'), supervisor: null });
    expect(await queueOf(device)).toEqual([]);
  });
});
