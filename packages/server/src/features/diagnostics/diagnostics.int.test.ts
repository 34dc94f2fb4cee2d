import { randomBytes } from 'node:crypto';
import type { DiagnosticRun } from '@flotilla/shared/diagnostics/diagnostics';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database } from '../../infra/db/database.js';
import { composeServer } from '../../server.js';
import { connectFakeDevice, type FakeDevice } from '../../test-support/fake-device-client.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import type { Diagnostics } from './register-diagnostics.js';
import { keptRunsPerAction, orphanedRunAfterMs, orphanedRunError, startRun } from './run-store.js';
import { waitForValue } from '../../test-support/wait-for.js';

let db: Database;
let app: FastifyInstance;
let diagnostics: Diagnostics;
let url: string;
let fleet: fx.FleetFixture;
let operatorKey: string;
let observerKey: string;

type Device = fx.DeviceFixture & { key: string };
const newDevice = async (): Promise<Device> => {
  const device = await fx.createDevice(db, fleet.id, `diag-${randomBytes(3).toString('hex')}`);
  return { ...device, key: await createApiKey(db, device.actorId, { name: 'device key' }) };
};

const connected = async (device: Device): Promise<FakeDevice> => {
  const fake = await connectFakeDevice(url, device.key, { uuid: device.uuid });
  await waitForValue(
    'the cloudlink',
    async () =>
      (
        await db.query<{ c: boolean }>(
          'SELECT "is_connected_to_vpn" AS c FROM "device" WHERE id = $1',
          [device.id],
        )
      ).rows[0]?.c,
    (value) => value === true,
  );
  return fake;
};

const call = (method: 'GET' | 'POST', path: string, key = operatorKey) =>
  app.inject({
    method,
    url: path,
    headers: { authorization: `Bearer ${key}` },
    payload: method === 'POST' ? {} : undefined,
  });

const latest = async (device: Device, action: 'checks' | 'diagnose'): Promise<DiagnosticRun> =>
  (await call('GET', `/actions/v1/${device.uuid}/${action}`)).json<DiagnosticRun>();

beforeAll(async () => {
  db = await createTestDatabase();
  ({ app, diagnostics } = composeServer(createTestContext(db)));
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  const organization = await fx.createOrganization(db, 'Doctors');
  fleet = await fx.createFleet(db, organization, 'Patients');
  const operator = await fx.createUser(db, 'diag-operator');
  await fx.addFleetMember(db, operator.userId, fleet.id, 'operator');
  operatorKey = await createApiKey(db, operator.actorId, { name: 'op' });
  const observer = await fx.createUser(db, 'diag-observer');
  await fx.addFleetMember(db, observer.userId, fleet.id, 'observer');
  observerKey = await createApiKey(db, observer.actorId, { name: 'obs' });
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

describe('health checks and diagnostics (actions service)', () => {
  it('runs checks on the device and keeps the result for a later read', async () => {
    const device = await newDevice();
    const fake = await connected(device);
    fake.answer = (request) =>
      request.action === 'checks'
        ? {
            status: 200,
            body: {
              diagnose_version: '1.0',
              checks: [
                { name: 'check_disk_space', success: true, status: 'Disk 12% used' },
                { name: 'check_time_sync', success: false, status: 'Clock not synchronised' },
              ],
            },
          }
        : undefined;
    const started = await call('POST', `/actions/v1/${device.uuid}/checks`);
    expect(started.statusCode).toBe(201);
    // The device answered at once: the run comes back done.
    expect(started.json()).toMatchObject({ action: 'checks', status: 'done' });
    const run = await waitForValue(
      'the run',
      () => latest(device, 'checks'),
      (r) => r.status !== 'in_progress',
    );
    expect(run).toMatchObject({
      id: started.json<DiagnosticRun>().id,
      status: 'done',
      diagnose_version: '1.0',
      checks: [
        { name: 'check_disk_space', success: true, status: 'Disk 12% used' },
        { name: 'check_time_sync', success: false, status: 'Clock not synchronised' },
      ],
      error: null,
    });
    expect(run.lastRun).not.toBeNull();
    const byId = await call('GET', `/actions/v1/${device.uuid}/${run.id}`);
    expect(byId.json()).toEqual(run);
    await fake.close();
  });

  it("starts a health-check run on each online device the server asks for (a rollout's)", async () => {
    const online = await newDevice();
    const offline = await newDevice();
    const fake = await connected(online);
    fake.answer = (request) =>
      request.action === 'checks'
        ? { status: 200, body: { diagnose_version: '1.0', checks: [] } }
        : undefined;
    await diagnostics.requestChecks([online.id, offline.id]);
    const run = await waitForValue(
      'the run',
      () => latest(online, 'checks'),
      (r) => r !== null && r.status === 'done',
    );
    expect(run).toMatchObject({ action: 'checks', status: 'done', checks: [] });
    expect(fake.received.map((request) => request.action)).toEqual(['checks']);
    expect((await call('GET', `/actions/v1/${offline.uuid}/checks`)).json()).toBeNull();
    await fake.close();
  });

  it('stores a diagnose report, and the error of a device that could not run one', async () => {
    const device = await newDevice();
    const fake = await connected(device);
    fake.answer = () => ({
      status: 200,
      body: { diagnose_version: '1.0', stdout: 'uptime: 5 min\n' },
    });
    await call('POST', `/actions/v1/${device.uuid}/diagnose`);
    const done = await waitForValue(
      'the run',
      () => latest(device, 'diagnose'),
      (r) => r.status !== 'in_progress',
    );
    expect(done).toMatchObject({ status: 'done', stdout: 'uptime: 5 min\n', checks: null });

    fake.answer = () => ({ status: 501, body: 'diagnose is not supported' });
    await call('POST', `/actions/v1/${device.uuid}/diagnose`);
    const failed = await waitForValue(
      'the run',
      () => latest(device, 'diagnose'),
      (r) => r.id !== done.id && r.status !== 'in_progress',
    );
    expect(failed).toMatchObject({
      status: 'error',
      error: 'diagnose is not supported',
      stdout: null,
    });

    fake.answer = () => ({ status: 200, body: { checks: 'not a list' } });
    await call('POST', `/actions/v1/${device.uuid}/diagnose`);
    const unreadable = await waitForValue(
      'the run',
      () => latest(device, 'diagnose'),
      (r) => r.id !== failed.id && r.status !== 'in_progress',
    );
    expect(unreadable.error).toMatch(/unreadable/);
    await fake.close();
  });

  it('keeps only the newest runs of each action', async () => {
    const device = await newDevice();
    const fake = await connected(device);
    fake.answer = () => ({ status: 200, body: { diagnose_version: '1', checks: [] } });
    for (let index = 0; index < keptRunsPerAction + 2; index++) {
      expect((await call('POST', `/actions/v1/${device.uuid}/checks`)).statusCode).toBe(201);
    }
    const { rows } = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM "diagnostic_run" WHERE "device" = $1',
      [device.id],
    );
    expect(Number(rows[0]?.n)).toBe(keptRunsPerAction);
    await fake.close();
  });

  it('answers with the run in progress when the device is slow, and keeps it going', async () => {
    const device = await newDevice();
    const fake = await connected(device);
    let answer: (() => void) | undefined;
    fake.answer = () =>
      new Promise((resolve) => {
        answer = () => resolve({ status: 200, body: { diagnose_version: '1', stdout: 'late\n' } });
      });
    const started = await call('POST', `/actions/v1/${device.uuid}/diagnose`);
    expect(started.json()).toMatchObject({ status: 'in_progress', lastRun: null, stdout: null });
    answer?.();
    const run = await waitForValue(
      'the run',
      () => latest(device, 'diagnose'),
      (r) => r.status !== 'in_progress',
    );
    expect(run).toMatchObject({ status: 'done', stdout: 'late\n' });
    await fake.close();
  });

  it('shows a run the server stopped during as failed, with the reason, not in progress forever', async () => {
    const device = await newDevice();
    // Started by a process that died: nothing will ever finish it.
    const lost = await startRun(
      db,
      device.id,
      'checks',
      new Date(Date.now() - orphanedRunAfterMs - 60_000),
    );
    expect(lost.status).toBe('in_progress');
    expect(await latest(device, 'checks')).toMatchObject({
      id: lost.id,
      status: 'error',
      error: orphanedRunError,
    });
    // One younger than any action's wait may still be answered.
    const recent = await startRun(db, device.id, 'checks', new Date());
    expect(await latest(device, 'checks')).toMatchObject({ id: recent.id, status: 'in_progress' });
  });

  it('answers 503 for a device without a cloudlink, null as the newest run before any', async () => {
    const device = await newDevice();
    const offline = await call('POST', `/actions/v1/${device.uuid}/checks`);
    expect(offline.statusCode).toBe(503);
    expect(offline.body).toMatch(/No online device/);
    const none = await call('GET', `/actions/v1/${device.uuid}/checks`);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();
    expect((await call('GET', `/actions/v1/${device.uuid}/12345`)).statusCode).toBe(404);
  });

  it('needs resin.device.access_diagnostics: an observer gets 401, as does an unknown device', async () => {
    const device = await newDevice();
    expect((await call('POST', `/actions/v1/${device.uuid}/checks`, observerKey)).statusCode).toBe(
      401,
    );
    expect((await call('GET', `/actions/v1/${device.uuid}/checks`, observerKey)).statusCode).toBe(
      401,
    );
    expect((await call('POST', `/actions/v1/${'0'.repeat(32)}/checks`)).statusCode).toBe(401);
  });

  it('refuses other actions and malformed run ids with a 400', async () => {
    const device = await newDevice();
    expect((await call('POST', `/actions/v1/${device.uuid}/reboot`)).statusCode).toBe(400);
    expect((await call('GET', `/actions/v1/${device.uuid}/x1`)).statusCode).toBe(400);
  });
});
