import type { Simulator } from '@flotilla/agent/simulator';
import { seedDemoCatalogue } from '@flotilla/server/features/demo/demo-catalogue';
import { importCatalogue } from '@flotilla/server/features/host-os/catalogue-store';
import { startTestServer, type TestServer } from '@flotilla/server/test-support/test-server';
import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BalenaFleet,
  createBalenaFleet,
  provisioningKeyFor,
  registerBalenaUser,
  waitUntil,
} from '../support/balena-sdk-setup.js';
import {
  type ReadyDevice,
  startFastSimulator,
  waitUntilConnected,
} from '../support/fast-simulator.js';

// The real balena-sdk starts an OS update on a REAL simulated device (the agent in simulator
// mode): the server tells it the host release to run in its target state, the device downloads,
// reboots and reports the new version, and the action's status follows; a supervisor update is
// picked up and reported too.

type Action = { id: string; status: string };

const isAction = (value: unknown): value is Action =>
  typeof value === 'object' &&
  value !== null &&
  'id' in value &&
  typeof value.id === 'string' &&
  'status' in value &&
  typeof value.status === 'string';

describe('OS and supervisor updates of a simulated device through balena-sdk', () => {
  let server: TestServer | undefined;
  let simulator: Simulator | undefined;
  let sdk: BalenaSDK;
  let fleet: BalenaFleet;
  let device: ReadyDevice;
  let actionsHost: string;

  beforeAll(async () => {
    server = await startTestServer();
    const db = server.db;
    await db.transaction(async (tx) => {
      await seedDemoCatalogue(tx);
      await importCatalogue(tx, {
        releases: [
          {
            kind: 'supervisor',
            cpuArchitecture: 'aarch64',
            version: '18.0.0',
            phase: null,
            knownIssues: null,
            notes: null,
            updaterImage: null,
            invalidated: false,
          },
        ],
      });
    });
    sdk = (await registerBalenaUser(server.url, 'simhup')).sdk;
    // balena-sdk calls https://actions.<deviceUrlsBase>; the test server is plain HTTP, so the
    // SDK's own request hook sends those calls to the same routes under /actions.
    actionsHost = `https://actions.${(await sdk.models.config.getAll()).deviceUrlsBase}/`;
    const apiUrl = server.url;
    sdk.interceptors.push({
      request: async (options: { url: string }) =>
        options.url.startsWith(actionsHost)
          ? { ...options, url: `${apiUrl}/actions/${options.url.slice(actionsHost.length)}` }
          : options,
    });
    fleet = await createBalenaFleet(sdk, 'simhup');
    const provisioningKey = await provisioningKeyFor(sdk, fleet.id);
    simulator = await startFastSimulator(
      server.url,
      { ...fleet, provisioningKey, count: 1 },
      { osUpdateStepMs: 200, supervisorCheckMs: 1000 },
    );
    const [handle] = simulator.devices;
    if (!handle) throw new Error('no simulated device');
    device = await waitUntilConnected(sdk, handle, 60_000);
  });

  afterAll(async () => {
    await simulator?.stop();
    await server?.close();
  });

  it('startOsUpdate: the device updates, reboots and reports the new version; the action is done', async () => {
    const before = await sdk.models.device.get(device.uuid, { $select: ['os_version'] });
    expect(before.os_version).toMatch(/^balenaOS [56]\./);
    expect(before.os_version).not.toBe('balenaOS 6.6.1');
    const action: unknown = await sdk.models.device.startOsUpdate(device.uuid, '6.6.1');
    if (!isAction(action)) throw new Error(`not an action: ${JSON.stringify(action)}`);
    expect(action.status).toBe('triggered');
    const status = async (): Promise<string> => {
      const { body } = await sdk.request.send({
        method: 'GET',
        url: `${actionsHost}v1/${device.uuid}/${action.id}`,
      });
      return isAction(body) ? body.status : 'unreadable';
    };
    const seen = new Set<string>();
    await waitUntil(
      'the OS update to finish',
      async () => {
        const current = await status();
        seen.add(current);
        return current;
      },
      (current) => current === 'done' || current === 'error',
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    expect(seen.has('done'), [...seen].join(', ')).toBe(true);
    expect(seen.has('in_progress'), [...seen].join(', ')).toBe(true);
    const after = await sdk.models.device.get(device.uuid, {
      $select: ['os_version', 'provisioning_state'],
    });
    expect(after).toMatchObject({ os_version: 'balenaOS 6.6.1', provisioning_state: null });
  });

  it('pinToSupervisorRelease: the device reports the new supervisor version', async () => {
    await sdk.models.device.pinToSupervisorRelease(device.uuid, '18.0.0');
    await waitUntil(
      'the new supervisor version',
      () => sdk.models.device.get(device.uuid, { $select: ['supervisor_version'] }),
      (row) => row.supervisor_version === '18.0.0',
      { timeoutMs: 30_000, intervalMs: 300 },
    );
  });
});
