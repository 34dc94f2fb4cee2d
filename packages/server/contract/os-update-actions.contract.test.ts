import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueFile } from '../src/features/host-os/catalogue-entry.js';
import { importCatalogue, listReleases } from '../src/features/host-os/catalogue-store.js';
import * as fx from '../src/test-support/fixtures.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import {
  createFleet,
  createOrganization,
  deviceTypeSlug,
  failureOf,
  insertDevice,
  registerUser,
} from './contract-helpers.js';

// balena-sdk's device.startOsUpdate against Flotilla. The SDK reads deviceUrlsBase from /config
// and always calls https://actions.<deviceUrlsBase>; the test server speaks plain HTTP on
// 127.0.0.1, so a request interceptor (the SDK's own hook, the SDK itself is unchanged) sends
// those calls to the same routes under /actions on the server. Everything else, the method,
// the path after the host, the body and the caller's token, is what the SDK sends.

type RequestOptions = { url: string };

const actionsViaAppHost = async (sdk: BalenaSDK, apiUrl: string): Promise<void> => {
  const { deviceUrlsBase } = await sdk.models.config.getAll();
  const actionsHost = `https://actions.${deviceUrlsBase}/`;
  sdk.interceptors.push({
    request: async (options: RequestOptions) =>
      options.url.startsWith(actionsHost)
        ? { ...options, url: `${apiUrl}/actions/${options.url.slice(actionsHost.length)}` }
        : options,
  });
};

type OsUpdateAction = { id: string; status: string; action: string };

const isAction = (value: unknown): value is OsUpdateAction =>
  typeof value === 'object' &&
  value !== null &&
  'id' in value &&
  typeof value.id === 'string' &&
  'status' in value &&
  typeof value.status === 'string';

describe('startOsUpdate through balena-sdk', () => {
  let server: TestServer;
  let sdk: BalenaSDK;
  let observer: BalenaSDK;
  let userId: number;
  let deviceTypeId: number;
  let fleetId: number;
  const release = new Map<string, number>();

  // A device running balenaOS 6.0.13 (prod) with its agent connected.
  const newDevice = async (connected = true): Promise<string> => {
    const { uuid } = await insertDevice(server, { fleetId, deviceTypeId, userId });
    await server.ctx.db.query(
      `UPDATE "device" SET "os_version" = 'balenaOS 6.0.13', "os_variant" = 'prod',
              "supervisor_version" = '16.2.0', "is_connected_to_vpn" = $2 WHERE "uuid" = $1`,
      [uuid, connected],
    );
    return uuid;
  };

  const osTargetOf = async (uuid: string): Promise<number | null> => {
    const { rows } = await server.ctx.db.query<{ os: number | null }>(
      'SELECT "should_be_operated_by__release" AS "os" FROM "device" WHERE "uuid" = $1',
      [uuid],
    );
    return rows[0]?.os ?? null;
  };

  beforeAll(async () => {
    server = await startTestServer();
    const file = catalogueFile.parse({
      releases: ['6.0.13', '6.1.0'].map((version) => ({
        kind: 'os',
        deviceType: deviceTypeSlug,
        version,
        variant: 'prod',
      })),
    });
    await server.ctx.db.transaction((tx) => importCatalogue(tx, file));
    for (const entry of await listReleases(server.ctx.db)) release.set(entry.version, entry.id);
    sdk = (await registerUser(server.url, 'starthup')).sdk;
    await actionsViaAppHost(sdk, server.url);
    userId = (await sdk.auth.getUserInfo()).id;
    const org = await createOrganization(sdk, 'Start hup org');
    deviceTypeId = (await sdk.models.deviceType.get(deviceTypeSlug, { $select: 'id' })).id;
    fleetId = (await createFleet(sdk, org.id, 'starthup')).id;
    observer = (await registerUser(server.url, 'hupobserver')).sdk;
    await actionsViaAppHost(observer, server.url);
    const observerId = (await observer.auth.getUserInfo()).id;
    await fx.addFleetMember(server.ctx.db, observerId, fleetId, 'observer');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('starts the update: the action is triggered and the device is told to run the release', async () => {
    const uuid = await newDevice();
    const action: unknown = await sdk.models.device.startOsUpdate(uuid, '6.1.0');
    if (!isAction(action)) throw new Error(`not an action: ${JSON.stringify(action)}`);
    expect(action).toMatchObject({ status: 'triggered', action: 'resinhup' });
    expect(await osTargetOf(uuid)).toBe(release.get('6.1.0'));

    // The status check the actions service offers, as the SDK's request sends it.
    const { body } = await sdk.request.send({
      method: 'GET',
      url: `https://actions.${(await sdk.models.config.getAll()).deviceUrlsBase}/v1/${uuid}/${action.id}`,
    });
    expect(body).toMatchObject({ id: action.id, status: 'triggered' });
  });

  it('an observer may not start it, and nothing changes', async () => {
    const uuid = await newDevice();
    const error = await failureOf(observer.models.device.startOsUpdate(uuid, '6.1.0'));
    expect(error.statusCode, error.message).toBe(401);
    expect(await osTargetOf(uuid)).toBe(release.get('6.0.13'));
  });

  it('a device whose agent is not connected is refused by the SDK before any call', async () => {
    const uuid = await newDevice(false);
    const error = await failureOf(sdk.models.device.startOsUpdate(uuid, '6.1.0'));
    expect(error.message).toContain('The device is offline');
    expect(await osTargetOf(uuid)).toBe(release.get('6.0.13'));
  });
});
