import {
  activatedMessage,
  deactivatedMessage,
  localModeOffMessage,
  localModeOnMessage,
} from './device-agent.js';
import type { ActionResult, Hello } from '@flotilla/shared/cloudlink/messages';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { type Simulator, type SimulatorOptions, startSimulator } from './simulator.js';
import { FakeApi, json } from './test-support/fake-api.js';

// Generous: a phase change that takes 100 ms idle can take seconds on a busy machine.
const phaseDeadlineMs = 15_000;

type Link = { socket: WebSocket; uuid: string | null; results: ActionResult[]; closed: boolean };

const release = {
  c0ffee: {
    id: 1,
    services: {
      'web-frontend': {
        id: 11,
        image_id: 21,
        image: `registry/web@sha256:${'ab'.repeat(32)}`,
      },
    },
  },
};

// A deactivated device's target: no release, and the server's `is_active: false`.
const target = (uuid: string, config: Record<string, string> = {}, active = true) => ({
  [uuid]: {
    name: uuid.slice(0, 7),
    ...(active ? {} : { is_active: false }),
    config,
    apps: {
      'app-uuid': {
        id: 7,
        name: 'demo',
        class: 'fleet',
        releases: active ? release : {},
      },
    },
  },
});

describe('startSimulator', () => {
  let api: FakeApi;
  let links: Link[];
  let simulator: Simulator | null;
  let registrations: number;
  let reports: Record<string, Record<string, unknown>>[];
  // The devices' configuration variables in the target state.
  let config: Record<string, string>;
  // Whether the devices' target state says they are active.
  let active: boolean;

  const options = (extra: Partial<SimulatorOptions> = {}): SimulatorOptions => ({
    api: api.url,
    fleets: [{ slug: 'admin/demo', provisioningKey: 'provisioning-key', count: 2 }],
    seed: 4,
    pollIntervalMs: 200,
    reportIntervalMs: 50,
    downloadMs: [100, 150],
    stepMs: 20,
    rebootOfflineMs: [300, 400],
    logIntervalMs: [50, 100],
    startSpreadMs: 0,
    powerDelayMs: 20,
    cloudlink: { reconnect: { baseMs: 50, maxMs: 200 } },
    logStream: { cooldownMs: 50, flushDelayMs: 10 },
    ...extra,
  });

  const linkOf = (uuid: string | null): Link | undefined =>
    links.filter((link) => link.uuid === uuid && !link.closed).at(-1);

  const act = async (
    uuid: string | null,
    action: string,
    params: Record<string, unknown> = {},
  ): Promise<ActionResult> => {
    const link = linkOf(uuid);
    if (!link) throw new Error(`no cloudlink for ${uuid}`);
    const id = `${action}-${Math.random()}`;
    link.socket.send(JSON.stringify({ type: 'action', id, action, params }));
    await api.waitFor(
      () => link.results.some((result) => result.id === id),
      `the ${action} result`,
    );
    const result = link.results.find((candidate) => candidate.id === id);
    if (!result) throw new Error('no result');
    return result;
  };

  beforeEach(async () => {
    api = await new FakeApi().listen();
    links = [];
    simulator = null;
    registrations = 0;
    reports = [];
    config = {};
    active = true;
    api.on((request, response) => {
      if (request.method === 'GET' && request.path.startsWith('/v7/application?')) {
        expect(decodeURIComponent(request.path)).toContain("slug eq 'admin/demo'");
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
        registrations++;
        const body = request.body as { uuid: string; api_key: string };
        return json(response, 201, { id: registrations, uuid: body.uuid, api_key: body.api_key });
      }
      if (request.method === 'PATCH' && request.path.startsWith('/v7/device('))
        return json(response, 200, {});
      const state = /^\/device\/v3\/([0-9a-f]+)\/state$/.exec(request.path);
      if (state?.[1]) {
        const etag = `"v1-${Buffer.from(JSON.stringify({ config, active })).toString('hex')}"`;
        if (request.headers['if-none-match'] === etag) {
          response.writeHead(304).end();
          return true;
        }
        return json(response, 200, target(state[1], config, active), { etag });
      }
      if (request.method === 'PATCH' && request.path === '/device/v3/state') {
        reports.push(request.body as Record<string, Record<string, unknown>>);
        return json(response, 200, {});
      }
    });
    api.wss.on('connection', (socket) => {
      const link: Link = { socket, uuid: null, results: [], closed: false };
      links.push(link);
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as Hello | ActionResult;
        if (message.type === 'hello') link.uuid = message.uuid;
        else link.results.push(message);
      });
      socket.on('close', () => (link.closed = true));
    });
  });

  afterEach(async () => {
    await simulator?.stop();
    await api.close();
  });

  it('registers, names and runs its devices, which report, log and keep a cloudlink', async () => {
    simulator = await startSimulator(options());
    const [first, second] = simulator.devices;
    if (!first || !second) throw new Error('two devices expected');
    await Promise.all([
      first.waitFor('online', phaseDeadlineMs),
      second.waitFor('online', phaseDeadlineMs),
    ]);
    expect(first.name).toMatch(/^[a-z]+-[a-z]+$/);
    expect(first.deviceType === 'raspberrypi4-64' || first.deviceType.length > 0).toBe(true);
    await api.waitFor(
      () => links.filter((link) => link.uuid !== null).length === 2,
      'two cloudlinks',
    );
    expect(registrations).toBe(2);
    const naming = api.requests.find(
      (request) => request.method === 'PATCH' && request.path === '/v7/device(1)',
    );
    expect(naming?.body).toMatchObject({ device_name: expect.stringMatching(/^[a-z]+-[a-z]+$/) });

    const uuid = first.uuid ?? '';
    await api.waitFor(
      () =>
        reports.some((report) =>
          JSON.stringify(report[uuid] ?? {}).includes('"update_status":"done"'),
        ),
      'a finished update',
    );
    const firstReport = reports.find((report) => report[uuid])?.[uuid];
    expect(firstReport).toMatchObject({
      os_version: expect.stringMatching(/^balenaOS /),
      supervisor_version: expect.any(String),
      ip_address: expect.any(String),
      mac_address: expect.stringMatching(/^[0-9A-F:]{17}/),
      memory_total: expect.any(Number),
    });
    await api.waitFor(
      () => api.logLines.some((line) => line.message === "Starting service 'web-frontend'"),
      'service logs',
    );
    expect((await act(uuid, 'ping')).status).toBe(200);
    expect((await act(uuid, 'blink')).status).toBe(200);
    expect(first.device.blinks).toBe(1);
  });

  it('goes offline during a reboot and comes back; a lock refuses unless forced; shutdown stays off', async () => {
    simulator = await startSimulator(options());
    const [first, second] = simulator.devices;
    if (!first || !second) throw new Error('two devices expected');
    await api.waitFor(
      () => links.filter((link) => link.uuid !== null).length === 2,
      'two cloudlinks',
    );

    const rebooting = linkOf(first.uuid);
    expect((await act(first.uuid, 'reboot')).status).toBe(200);
    await first.waitFor('rebooting', phaseDeadlineMs);
    await api.waitFor(() => rebooting?.closed === true, 'the cloudlink to drop');
    expect(first.agent?.cloudlinkConnected).toBe(false);
    await first.waitFor('online', phaseDeadlineMs);
    await api.waitFor(() => linkOf(first.uuid) !== undefined, 'the cloudlink to return');
    expect(linkOf(first.uuid)).not.toBe(rebooting);

    second.setUpdateLock(true);
    const refused = await act(second.uuid, 'reboot');
    expect(refused.status).toBe(423);
    expect(second.phase).toBe('online');
    expect((await act(second.uuid, 'shutdown', { force: true })).status).toBe(200);
    await second.waitFor('off', phaseDeadlineMs);
    await api.waitFor(() => linkOf(second.uuid) === undefined, 'the cloudlink to close');
    // A shut-down device's power cycle ends 'off', never 'back' (simulated-device.test.ts), so
    // nothing will boot it again: no wait here could prove that better.
    expect(second.agent?.phase).toBe('off');
  });

  it('applies no release in local mode, and the release once local mode is off', async () => {
    config = { RESIN_SUPERVISOR_LOCAL_MODE: '1' };
    simulator = await startSimulator(
      options({ fleets: [{ slug: 'admin/demo', provisioningKey: 'provisioning-key', count: 1 }] }),
    );
    const [device] = simulator.devices;
    if (!device) throw new Error('one device expected');
    await device.waitFor('online', phaseDeadlineMs);
    const polls = () =>
      api.requests.filter((request) => request.path === `/device/v3/${device.uuid ?? ''}/state`)
        .length;
    // Several polls answered the local-mode target; without local mode the first one starts
    // the service.
    await api.waitFor(() => polls() >= 4, 'four target-state polls');
    const started = () =>
      api.logLines.some(
        (line) => typeof line.message === 'string' && line.message.startsWith('Starting service'),
      );
    expect(started()).toBe(false);
    const systemLine = (message: string) => () =>
      api.logLines.some((line) => line.message === message && line.isSystem === true);
    await api.waitFor(systemLine(localModeOnMessage), 'local mode reported in the logs');
    config = { RESIN_SUPERVISOR_LOCAL_MODE: '0' };
    await api.waitFor(started, 'the service started once local mode is off');
    expect(systemLine(localModeOffMessage)()).toBe(true);
  });

  it('reports a deactivated device inactive, and runs its release once active again', async () => {
    active = false;
    simulator = await startSimulator(
      options({ fleets: [{ slug: 'admin/demo', provisioningKey: 'provisioning-key', count: 1 }] }),
    );
    const [device] = simulator.devices;
    if (!device) throw new Error('one device expected');
    await device.waitFor('online', phaseDeadlineMs);
    const systemLine = (message: string) => () =>
      api.logLines.some((line) => line.message === message && line.isSystem === true);
    await api.waitFor(systemLine(deactivatedMessage), 'deactivation reported in the logs');
    expect(device.agent?.active).toBe(false);
    const started = () =>
      api.logLines.some(
        (line) => typeof line.message === 'string' && line.message.startsWith('Starting service'),
      );
    expect(started()).toBe(false);
    active = true;
    await api.waitFor(started, 'the service started once the device is active');
    expect(systemLine(activatedMessage)()).toBe(true);
    expect(device.agent?.active).toBe(true);
  });

  it('reuses registered devices from its state dir', async () => {
    const stateDir = await mkdtemp(path.join(tmpdir(), 'flotilla-sim-'));
    try {
      simulator = await startSimulator(options({ stateDir }));
      await Promise.all(
        simulator.devices.map((device) => device.waitFor('online', phaseDeadlineMs)),
      );
      const before = simulator.devices.map((device) => [device.uuid, device.name]);
      await simulator.stop();
      simulator = await startSimulator(options({ stateDir, seed: 99 }));
      await Promise.all(
        simulator.devices.map((device) => device.waitFor('online', phaseDeadlineMs)),
      );
      expect(simulator.devices.map((device) => [device.uuid, device.name])).toEqual(before);
      expect(registrations).toBe(2);
    } finally {
      await simulator?.stop();
      await rm(stateDir, { recursive: true, force: true });
    }
  });
});
