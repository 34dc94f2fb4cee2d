import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { composeServer } from '../../server.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { recordHostOsUpdates } from '../cloudlink/session-store.js';
import { catalogueFile } from '../host-os/catalogue-entry.js';
import { importCatalogue, listReleases } from '../host-os/catalogue-store.js';

// Starting an OS update through balena's actions service (POST /v2/:uuid/resinhup on
// actions.<deviceUrlsBase>, or /actions/v2/... on the app's host) and reading its status.

let db: Database;
let app: FastifyInstance;
let fleet: fx.FleetFixture;
let operatorKey: string;
let observerKey: string;
let strangerKey: string;
const release = new Map<string, number>();

const id = (key: string): number => {
  const found = release.get(key);
  if (found === undefined) throw new Error(`no catalogue release ${key}`);
  return found;
};

type DeviceState = {
  os: number | null;
  os_version: string | null;
  provisioning_state: string | null;
};

// A connected device running balenaOS 6.0.13 (prod).
const newDevice = async (connected = true): Promise<fx.DeviceFixture> => {
  const device = await fx.createDevice(db, fleet.id, 'gateway');
  await db.query(
    `UPDATE "device" SET "os_version" = 'balenaOS 6.0.13', "os_variant" = 'prod',
            "supervisor_version" = '16.2.0', "is_connected_to_vpn" = $2 WHERE "id" = $1`,
    [device.id, connected],
  );
  return device;
};

const stateOf = async (deviceId: number): Promise<DeviceState> => {
  const { rows } = await db.query<DeviceState>(
    `SELECT "should_be_operated_by__release" AS "os", "os_version", "provisioning_state"
       FROM "device" WHERE "id" = $1`,
    [deviceId],
  );
  const row = rows[0];
  if (row === undefined) throw new Error(`no device ${deviceId}`);
  return row;
};

const startUpdate = (
  uuid: string,
  key: string,
  targetVersion: unknown,
  options: { host?: string; path?: string } = {},
) =>
  app.inject({
    method: 'POST',
    url: options.path ?? `/v2/${uuid}/resinhup`,
    headers: { host: options.host ?? 'actions.localhost', authorization: `Bearer ${key}` },
    payload: { parameters: { target_version: targetVersion } },
  });

const actionStatus = (uuid: string, actionId: string, key: string) =>
  app.inject({
    method: 'GET',
    url: `/v1/${uuid}/${actionId}`,
    headers: { host: 'actions.localhost', authorization: `Bearer ${key}` },
  });

beforeAll(async () => {
  db = await createTestDatabase();
  app = composeServer(createTestContext(db)).app;
  await app.ready();
  const organization = await fx.createOrganization(db, 'Actions');
  fleet = await fx.createFleet(db, organization, 'Hup', { deviceType: 'raspberrypi4-64' });
  const keyOf = async (name: string, role: string | undefined): Promise<string> => {
    const user = await fx.createUser(db, name);
    if (role !== undefined) await fx.addFleetMember(db, user.userId, fleet.id, role);
    return createApiKey(db, user.actorId, { name: `${name} key` });
  };
  operatorKey = await keyOf('hup-operator', 'safe-operator');
  observerKey = await keyOf('hup-observer', 'observer');
  strangerKey = await keyOf('hup-stranger', undefined);
  const file = catalogueFile.parse({
    releases: [
      ...['5.3.21', '6.0.13', '6.1.0', '6.2.0'].map((version) => ({
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
  await app?.close();
  await db?.close();
});

describe('the actions service: OS updates', () => {
  it('starts an update: the device is told to run the release, the action is triggered', async () => {
    const device = await newDevice();
    const started = await startUpdate(device.uuid, operatorKey, '6.1.0');
    expect(started.statusCode, started.body).toBe(200);
    const action = started.json<{ id: string; status: string }>();
    expect(action).toMatchObject({ status: 'triggered', action: 'resinhup', device: device.uuid });
    expect((await stateOf(device.id)).os).toBe(id('6.1.0'));

    const read = async () => {
      const response = await actionStatus(device.uuid, action.id, operatorKey);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    expect(await read()).toMatchObject({ id: action.id, status: 'triggered' });
    await db.query(
      `UPDATE "device" SET "provisioning_state" = 'OS update: downloading' WHERE "id" = $1`,
      [device.id],
    );
    expect(await read()).toMatchObject({ status: 'in_progress' });
    await db.query(
      `UPDATE "device" SET "provisioning_state" = NULL, "os_version" = 'balenaOS 6.1.0' WHERE "id" = $1`,
      [device.id],
    );
    expect(await read()).toMatchObject({ status: 'done', parameters: { target_version: '6.1.0' } });
  });

  it('reports a failed update as an error with the reason the device gave', async () => {
    const device = await newDevice();
    const started = await startUpdate(device.uuid, operatorKey, '6.2.0.prod');
    expect(started.statusCode, started.body).toBe(200);
    await db.query(
      `UPDATE "device" SET "provisioning_state" = 'OS update to balenaOS 6.2.0 failed: no space; rolled back to balenaOS 6.0.13' WHERE "id" = $1`,
      [device.id],
    );
    const id = started.json<{ id: string }>().id;
    const status = await actionStatus(device.uuid, id, operatorKey);
    expect(status.json()).toMatchObject({
      status: 'error',
      error: 'no space; rolled back to balenaOS 6.0.13',
    });
    // Another version's failure, or progress, is not this update's.
    await db.query(
      `UPDATE "device" SET "provisioning_state" = 'OS update to balenaOS 6.1.0 failed: no space' WHERE "id" = $1`,
      [device.id],
    );
    expect((await actionStatus(device.uuid, id, operatorKey)).json()).toMatchObject({
      status: 'triggered',
    });
    await db.query(
      `UPDATE "device" SET "provisioning_state" = 'OS update: downloading balenaOS 6.2.0' WHERE "id" = $1`,
      [device.id],
    );
    expect((await actionStatus(device.uuid, id, operatorKey)).json()).toMatchObject({
      status: 'in_progress',
    });
  });

  it('answers on the app host under /actions too', async () => {
    const device = await newDevice();
    const started = await startUpdate(device.uuid, operatorKey, '6.1.0', {
      host: 'localhost',
      path: `/actions/v2/${device.uuid}/resinhup`,
    });
    expect(started.statusCode, started.body).toBe(200);
    expect((await stateOf(device.id)).os).toBe(id('6.1.0'));
    const status = await app.inject({
      method: 'GET',
      url: `/actions/v1/${device.uuid}/${started.json<{ id: string }>().id}`,
      headers: { host: 'localhost', authorization: `Bearer ${operatorKey}` },
    });
    expect(status.json()).toMatchObject({ status: 'triggered' });
  });

  it('refuses a role without the OS update permission, and changes nothing', async () => {
    const device = await newDevice();
    for (const target of ['6.1.0', '6.0.13', 'nonsense', '7.0.0']) {
      const refused = await startUpdate(device.uuid, observerKey, target);
      expect(refused.statusCode, `${target}: ${refused.body}`).toBe(401);
    }
    expect((await stateOf(device.id)).os).toBe(id('6.0.13'));
    // The observer still reads the status of an update someone else started.
    const started = await startUpdate(device.uuid, operatorKey, '6.1.0');
    const id61 = started.json<{ id: string }>().id;
    expect((await actionStatus(device.uuid, id61, observerKey)).json()).toMatchObject({
      status: 'triggered',
    });
    // A device the caller cannot see at all answers the same.
    expect((await startUpdate(device.uuid, strangerKey, '6.1.0')).statusCode).toBe(401);
    expect(
      (await actionStatus(device.uuid, `resinhup-${id('6.1.0')}`, strangerKey)).statusCode,
    ).toBe(401);
  });

  it('refuses bad versions with 400 and writes nothing', async () => {
    const device = await newDevice();
    const cases: [unknown, string][] = [
      ['six', 'is not a balenaOS version'],
      [7, 'target_version'],
      ['7.0.0', 'No balenaOS 7.0.0 release for device type raspberrypi4-64'],
      ['5.3.21', 'OS downgrades are not allowed'],
      ['6.0.13', 'already runs balenaOS 6.0.13'],
      ['6.1.0.dev', 'No balenaOS 6.1.0.dev release'],
    ];
    for (const [target, message] of cases) {
      const refused = await startUpdate(device.uuid, operatorKey, target);
      expect(refused.statusCode, `${String(target)}: ${refused.body}`).toBe(400);
      expect(refused.body).toContain(message);
    }
    expect((await stateOf(device.id)).os).toBe(id('6.0.13'));
  });

  it('refuses a device that is not connected, and keeps nothing', async () => {
    const device = await newDevice(false);
    const refused = await startUpdate(device.uuid, operatorKey, '6.1.0');
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.body).toContain('offline');
    expect((await stateOf(device.id)).os).toBe(id('6.0.13'));
  });

  it('refuses at once a host whose agent said it runs no OS updates, and keeps nothing', async () => {
    const device = await newDevice();
    await recordHostOsUpdates(db, { deviceId: device.id, hostOsUpdates: false });
    const refused = await startUpdate(device.uuid, operatorKey, '6.1.0');
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.body).toContain('OS updates are not supported on this host');
    expect((await stateOf(device.id)).os).toBe(id('6.0.13'));
    // Once its agent says it runs them, the same update starts.
    await recordHostOsUpdates(db, { deviceId: device.id, hostOsUpdates: true });
    expect((await startUpdate(device.uuid, operatorKey, '6.1.0')).statusCode).toBe(200);
    expect((await stateOf(device.id)).os).toBe(id('6.1.0'));
  });

  it('answers 404 for an unknown action', async () => {
    const device = await newDevice();
    expect((await actionStatus(device.uuid, 'nonsense', operatorKey)).statusCode).toBe(404);
  });

  // As balenaOS's supervisor updater (and a simulated device) asks, with the device's own key.
  it('lets a device read the supervisor release it should run', async () => {
    const device = await newDevice();
    await db.query(`UPDATE "device" SET "should_be_managed_by__release" = $2 WHERE "id" = $1`, [
      device.id,
      id('17.1.4'),
    ]);
    const deviceKey = await createApiKey(db, device.actorId, { name: 'device key' });
    const response = await app.inject({
      method: 'GET',
      url: `/v7/device?$select=id&$filter=uuid eq '${device.uuid}'&$expand=should_be_managed_by__release($select=raw_version)`,
      headers: { authorization: `Bearer ${deviceKey}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      d: [{ id: device.id, should_be_managed_by__release: [{ raw_version: '17.1.4' }] }],
    });
  });
});
