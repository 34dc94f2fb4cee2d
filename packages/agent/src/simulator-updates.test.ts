import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from './simulator.js';
import { FakeApi, json } from './test-support/fake-api.js';

// A simulated device whose target names a newer host OS release updates to it (progress, reboot,
// new os_version), and one told to run a newer supervisor release reports it; both versions are
// kept in the state dir for the next run.

const phaseDeadlineMs = 15_000;

const target = (uuid: string) => ({
  [uuid]: {
    name: uuid.slice(0, 7),
    config: {},
    apps: {
      'app-uuid': { id: 7, name: 'demo', class: 'fleet', releases: {} },
      'host-uuid': {
        id: 2,
        name: 'raspberrypi4-64',
        class: 'app',
        is_host: true,
        releases: { ['0f'.repeat(16)]: { id: 31, raw_version: '7.0.0', services: {} } },
      },
    },
  },
});

describe('simulated OS and supervisor updates', () => {
  let api: FakeApi;
  let simulator: Simulator | null;
  let stateDir: string;
  let reports: Record<string, Record<string, unknown>>[];

  beforeEach(async () => {
    api = await new FakeApi().listen();
    simulator = null;
    reports = [];
    stateDir = await mkdtemp(path.join(tmpdir(), 'flotilla-sim-updates-'));
    api.on((request, response) => {
      if (request.method === 'GET' && request.path.startsWith('/v7/application?')) {
        return json(response, 200, {
          d: [
            {
              id: 7,
              slug: 'admin/demo',
              is_for__device_type: [
                { slug: 'raspberrypi4-64', is_of__cpu_architecture: [{ slug: 'aarch64' }] },
              ],
            },
          ],
        });
      }
      if (request.path === '/device/register') {
        const body = request.body as { uuid: string; api_key: string };
        return json(response, 201, { id: 1, uuid: body.uuid, api_key: body.api_key });
      }
      if (request.method === 'PATCH' && request.path.startsWith('/v7/device('))
        return json(response, 200, {});
      if (request.method === 'GET' && request.path.startsWith('/v7/device?')) {
        return json(response, 200, {
          d: [{ id: 1, should_be_managed_by__release: [{ raw_version: '99.0.0' }] }],
        });
      }
      const state = /^\/device\/v3\/([0-9a-f]+)\/state$/.exec(request.path);
      if (state?.[1]) return json(response, 200, target(state[1]));
      if (request.method === 'PATCH' && request.path === '/device/v3/state') {
        reports.push(request.body as Record<string, Record<string, unknown>>);
        return json(response, 200, {});
      }
      return undefined;
    });
  });

  afterEach(async () => {
    await simulator?.stop();
    await api.close();
    await rm(stateDir, { recursive: true, force: true });
  });

  it('updates the host OS and the supervisor, and keeps the versions', async () => {
    simulator = await startSimulator({
      api: api.url,
      fleets: [{ slug: 'admin/demo', provisioningKey: 'provisioning-key', count: 1 }],
      seed: 4,
      stateDir,
      pollIntervalMs: 200,
      reportIntervalMs: 20,
      rebootOfflineMs: [100, 150],
      logIntervalMs: [5000, 5000],
      startSpreadMs: 0,
      osUpdateStepMs: 20,
      supervisorCheckMs: 100,
      cloudlink: { reconnect: { baseMs: 50, maxMs: 200 } },
      logStream: { cooldownMs: 50, flushDelayMs: 10 },
    });
    const [device] = simulator.devices;
    if (!device) throw new Error('one device expected');
    await device.waitFor('online', phaseDeadlineMs);
    const uuid = device.uuid ?? '';
    const reported = () => reports.map((report) => report[uuid] ?? {});
    // Listened for from now: the reboot may come and go while the progress is being polled for.
    const rebooted = device.waitFor('rebooting', 2 * phaseDeadlineMs);
    await api.waitFor(
      () => reported().some((report) => report.provisioning_progress === 40),
      'download progress',
    );
    await rebooted;
    await api.waitFor(
      () => reported().some((report) => report.os_version === 'balenaOS 7.0.0'),
      'the new OS version',
    );
    const last = Object.assign({}, ...reported()) as Record<string, unknown>;
    expect(last).toMatchObject({ provisioning_state: null, provisioning_progress: null });
    await api.waitFor(
      () => reported().some((report) => report.supervisor_version === '99.0.0'),
      'the new supervisor version',
    );
    await simulator.stop();
    const file = JSON.parse(
      await readFile(path.join(stateDir, 'simulated-devices.json'), 'utf8'),
    ) as { devices: Record<string, { osVersion?: string; supervisorVersion?: string }> };
    expect(Object.values(file.devices)[0]).toMatchObject({
      osVersion: 'balenaOS 7.0.0',
      supervisorVersion: '99.0.0',
    });
  });
});
