import { randomBytes } from 'node:crypto';
import type { RunOutcome } from '@flotilla/shared/devices/queued-actions';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { composeServer } from '../../server.js';
import { withAuditRefused as refusingAudit } from '../../test-support/audit-refusal.js';
import { connectFakeDevice, type FakeDevice } from '../../test-support/fake-device-client.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { waitFor } from '../../test-support/wait-for.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import type { Cloudlink } from '../cloudlink/register-cloudlink.js';
import { catalogueFile } from '../host-os/catalogue-entry.js';
import { importCatalogue, listReleases } from '../host-os/catalogue-store.js';

// What the device routes write commits with its record: an action queued for an offline device,
// an OS update queued (the release set and the queued action), a device's own tags and a
// diagnostics run. A record that cannot be written (a trigger refuses every insert into the log
// meanwhile) undoes the change; a refused change leaves no record.
let db: Database;
let app: FastifyInstance;
let cloudlink: Cloudlink;
let url: string;
let fleet: fx.FleetFixture;
let operatorKey: string;
let observerKey: string;
const connected: FakeDevice[] = [];
const release = new Map<string, number>();

const withAuditRefused = (work: () => Promise<void>, resource?: string) =>
  refusingAudit(db, work, resource);

type Device = fx.DeviceFixture & { key: string };
const newDevice = async (): Promise<Device> => {
  const device = await fx.createDevice(db, fleet.id, `at-${randomBytes(3).toString('hex')}`);
  await db.query(
    `UPDATE "device" SET "os_version" = 'balenaOS 6.0.13', "os_variant" = 'prod' WHERE "id" = $1`,
    [device.id],
  );
  return { ...device, key: await createApiKey(db, device.actorId, { name: 'device key' }) };
};

const call = (method: 'POST' | 'PATCH', path: string, key: string, payload: object = {}) =>
  app.inject({ method, url: path, headers: { authorization: `Bearer ${key}` }, payload });

const count = async (sql: string, params: number[]): Promise<number> =>
  (await db.query(sql, params)).rowCount ?? 0;
const queued = (device: Device) =>
  count(`SELECT 1 FROM "queued_device_action" WHERE "device" = $1`, [device.id]);
const records = async (resource: string): Promise<string[]> =>
  (
    await db.query<{ action: string }>(
      `SELECT "action" FROM "audit_log_entry" WHERE "resource" = $1 ORDER BY "id"`,
      [resource],
    )
  ).rows.map((row) => row.action);
const osPin = async (device: Device): Promise<number | null | undefined> =>
  (
    await db.query<{ os: number | null }>(
      `SELECT "should_be_operated_by__release" AS "os" FROM "device" WHERE "id" = $1`,
      [device.id],
    )
  ).rows[0]?.os;

beforeAll(async () => {
  db = await createTestDatabase();
  ({ app, cloudlink } = composeServer(createTestContext(db), {
    cloudlink: { actionTimeoutMs: 2_000, nodeHeartbeatMs: 500 },
    queuedActions: { sweepIntervalMs: 3_600_000 },
  }));
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  const organization = await fx.createOrganization(db, 'Device records');
  fleet = await fx.createFleet(db, organization, 'Recorded', { deviceType: 'raspberrypi4-64' });
  for (const [name, role] of [
    ['at-operator', 'operator'],
    ['at-observer', 'observer'],
  ] as const) {
    const user = await fx.createUser(db, name);
    await fx.addFleetMember(db, user.userId, fleet.id, role);
    const key = await createApiKey(db, user.actorId, { name });
    if (role === 'operator') operatorKey = key;
    else observerKey = key;
  }
  const file = catalogueFile.parse({
    releases: ['6.0.13', '6.1.0'].map((version) => ({
      kind: 'os',
      deviceType: 'raspberrypi4-64',
      version,
      variant: 'prod',
    })),
  });
  await db.transaction((tx) => importCatalogue(tx, file));
  for (const entry of await listReleases(db)) release.set(entry.version, entry.id);
});
afterAll(async () => {
  await Promise.all(connected.map((fake) => fake.close()));
  await app?.close();
  await db?.close();
});

const runRoute = 'POST /device-actions/v1/run';
const run = (device: Device, action: string, params: object = {}, key = operatorKey) =>
  call('POST', '/device-actions/v1/run', key, {
    action,
    deviceIds: [device.id],
    params,
    queue: { expiresInHours: 24 },
  });

describe('an action queued for an offline device (POST /device-actions/v1/run)', () => {
  it('is not queued when its record cannot be written', async () => {
    const device = await newDevice();
    await withAuditRefused(async () => {
      expect((await run(device, 'reboot')).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect(await queued(device)).toBe(0);
    expect(await records(runRoute)).toEqual([]);
  });

  it('is recorded once; a refused one (not allowed) not at all', async () => {
    const device = await newDevice();
    expect((await run(device, 'reboot', {}, observerKey)).statusCode).toBe(401);
    expect(await records(runRoute)).toEqual([]);
    const response = await run(device, 'reboot');
    expect(response.json<RunOutcome[]>()).toMatchObject([{ outcome: 'queued' }]);
    expect(await queued(device)).toBe(1);
    expect(await records(runRoute)).toEqual(['device_action']);
  });
});

describe('an OS update queued for an offline device', () => {
  const update = (device: Device) => run(device, 'os-update', { targetVersion: '6.1.0' });

  // The release is a /v7 write recorded as such; the call's own record is refused here.
  it('sets no release and queues nothing when its record cannot be written', async () => {
    const device = await newDevice();
    const before = await osPin(device);
    await withAuditRefused(async () => {
      expect((await update(device)).statusCode).toBeGreaterThanOrEqual(500);
    }, runRoute);
    expect(await osPin(device)).toBe(before);
    expect(await queued(device)).toBe(0);
  });

  it('sets the release and queues the update with one record of the call', async () => {
    const device = await newDevice();
    const recorded = (await records(runRoute)).length;
    expect((await update(device)).json<RunOutcome[]>()).toMatchObject([{ outcome: 'queued' }]);
    expect(await osPin(device)).toBe(release.get('6.1.0'));
    expect(await queued(device)).toBe(1);
    expect((await records(runRoute)).length).toBe(recorded + 1);
  });
});

describe("a device's own tags (PATCH /device/v3/tags)", () => {
  const tagsRoute = 'PATCH /device/v3/tags';
  const tags = (device: Device, key = device.key) =>
    call('PATCH', '/device/v3/tags', key, { [device.uuid]: { room: 'attic' } });
  const tagged = (device: Device) =>
    count(`SELECT 1 FROM "device_tag" WHERE "device" = $1`, [device.id]);

  it('are not set when their record cannot be written', async () => {
    const device = await newDevice();
    await withAuditRefused(async () => {
      expect((await tags(device)).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect(await tagged(device)).toBe(0);
    expect(await records(tagsRoute)).toEqual([]);
  });

  it("are recorded once; another device's refused", async () => {
    const device = await newDevice();
    const other = await newDevice();
    expect((await tags(other, device.key)).statusCode).toBe(401);
    expect(await records(tagsRoute)).toEqual([]);
    expect((await tags(device)).statusCode).toBe(200);
    expect(await tagged(device)).toBe(1);
    expect(await records(tagsRoute)).toEqual(['request']);
  });
});

describe('a diagnostics run', () => {
  const runsRoute = 'POST /actions/v1/:uuid/:action';
  const runs = (device: Device) =>
    count(`SELECT 1 FROM "diagnostic_run" WHERE "device" = $1`, [device.id]);
  const online = async (device: Device): Promise<FakeDevice> => {
    const fake = await connectFakeDevice(url, device.key, { uuid: device.uuid });
    connected.push(fake);
    await waitFor(
      'the session',
      async () => (await cloudlink.connectedDevices([device.id])).size > 0,
    );
    return fake;
  };
  const diagnose = (device: Device, key = operatorKey) =>
    call('POST', `/actions/v1/${device.uuid}/checks`, key);

  it('is not started when its record cannot be written', async () => {
    const device = await newDevice();
    const fake = await online(device);
    await withAuditRefused(async () => {
      expect((await diagnose(device)).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect(await runs(device)).toBe(0);
    expect(fake.received).toEqual([]);
    expect(await records(runsRoute)).toEqual([]);
  });

  it('is recorded once; a refused one (not allowed) not at all', async () => {
    const device = await newDevice();
    await online(device);
    expect((await diagnose(device, observerKey)).statusCode).toBeGreaterThanOrEqual(400);
    expect(await records(runsRoute)).toEqual([]);
    expect((await diagnose(device)).statusCode).toBe(201);
    expect(await runs(device)).toBe(1);
    expect(await records(runsRoute)).toEqual(['device_action']);
  });
});
