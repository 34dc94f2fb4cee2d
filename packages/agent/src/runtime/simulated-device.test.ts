import { describe, expect, it } from 'vitest';
import type { LogLine } from './device-runtime.js';
import type { ActionParams, DeviceAction } from '@flotilla/shared/cloudlink/messages';
import { checksReport, diagnoseReport } from '@flotilla/shared/diagnostics/diagnostics';
import type { TerminalTarget } from '@flotilla/shared/terminal/terminal-protocol';
import {
  messages,
  setup,
  statuses,
  target,
  withRelease,
} from '../test-support/simulated-device-world.js';

describe('SimulatedDevice', () => {
  it('makes the release’s networks, joins its services to them, and removes those it dropped', async () => {
    const { clock, device, logs } = setup();
    const base = target('c1');
    const release = base.app?.release;
    if (!release) throw new Error('the target has a release');
    const [web, reader] = release.services;
    if (!web || !reader) throw new Error('the release has two services');
    device.applyTarget(
      withRelease(base, {
        ...release,
        networks: [{ name: 'backend', subnets: [] }],
        services: [
          web,
          { ...reader, composition: { networks: [{ name: 'backend', aliases: ['reader'] }] } },
        ],
      }),
      false,
    );
    await clock.runFor(10_000);
    expect(messages(logs)).toEqual(
      expect.arrayContaining(["Creating network '7_backend'", "Creating network '7_default'"]),
    );
    expect((await device.engine.listNetworks()).map((network) => network.name).sort()).toEqual([
      '7_backend',
      '7_default',
    ]);
    const joined = device.engine
      .inspectAll()
      .map(({ spec }) => (spec.networks ?? []).map((network) => network.name));
    expect(joined).toEqual([['7_default'], ['7_backend']]);
    expect(statuses(device)).toEqual(['Running', 'Running']);
    // The next release joins them all to the default network: the backend goes.
    device.applyTarget(target('c2'), false);
    await clock.runFor(10_000);
    expect(device.info().apps['app-uuid']?.release_uuid).toBe('c2');
    expect(messages(logs)).toContain("Removing network '7_backend'");
    expect((await device.engine.listNetworks()).map((network) => network.name)).toEqual([
      '7_default',
    ]);
  });

  it('answers 423 to locked actions unless forced, and honours the override variable', async () => {
    const { device, polls, logs } = setup(true);
    expect((await device.handleAction('reboot', {})).status).toBe(423);
    expect((await device.handleAction('shutdown', {})).status).toBe(423);
    expect((await device.handleAction('restart-services', {})).status).toBe(423);
    expect((await device.handleAction('purge', {})).status).toBe(423);
    expect((await device.handleAction('update', {})).status).toBe(423);
    expect(polls).toEqual([]);
    expect(messages(logs)).toContain(
      'Updates are locked: reboot refused (use force to override the lock)',
    );
    expect(await device.handleAction('reboot', { force: true })).toMatchObject({
      status: 200,
      then: 'reboot',
    });
    expect((await device.handleAction('update', { force: true })).status).toBe(200);
    expect(polls).toEqual([true]);
    expect((await device.handleAction('blink', {})).status).toBe(200);
    device.applyTarget(target('c1', ['web'], { BALENA_SUPERVISOR_OVERRIDE_LOCK: '1' }), false);
    expect(await device.handleAction('shutdown', {})).toMatchObject({
      status: 200,
      then: 'shutdown',
    });
  });

  it('starts, stops and restarts one service, and restarts all of them', async () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    // An action answers once the engine has done it.
    const act = async (action: DeviceAction, params: ActionParams = {}): Promise<number> => {
      const outcome = device.handleAction(action, params);
      await clock.runFor(1000);
      return (await outcome).status;
    };
    expect(await act('stop-service', { imageId: 100 })).toBe(200);
    expect(statuses(device)).toEqual(['exited', 'Running']);
    expect(device.info().apps['app-uuid']?.releases.c1?.services.web?.status).toBe('exited');
    expect(await act('start-service', { serviceName: 'web' })).toBe(200);
    expect(statuses(device)).toEqual(['Running', 'Running']);
    const restarting = device.handleAction('restart-services', {});
    // The first service is stopped (a step), then starts again (another).
    await clock.runFor(150);
    expect(statuses(device)).toEqual(['Starting', 'Running']);
    await clock.runFor(1000);
    expect((await restarting).status).toBe(200);
    expect(statuses(device)).toEqual(['Running', 'Running']);
    expect(await act('restart-service', { imageId: 999 })).toBe(404);
    expect(await act('restart-service', {})).toBe(400);
  });

  it('purges: the services are stopped and removed, their volumes emptied, then started again', async () => {
    const { clock, device, logs } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    const before = device.engine.inspectAll().map(({ container }) => container.id);
    logs.length = 0;
    const purging = device.handleAction('purge', { appId: 7 });
    await clock.runFor(5000);
    expect((await purging).status).toBe(200);
    expect(messages(logs)).toEqual(
      expect.arrayContaining([
        'Purging application data',
        "Killed service 'web'",
        'Purged application data',
        "Starting service 'web'",
      ]),
    );
    expect(statuses(device)).toEqual(['Running', 'Running']);
    const after = device.engine.inspectAll().map(({ container }) => container.id);
    expect(after.some((id) => before.includes(id))).toBe(false);
  });

  it('reports a /v1/device-like state and wandering metrics', async () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    const state = await device.handleAction('device-state', {});
    expect(state.body).toMatchObject({
      api_port: 48484,
      commit: 'c1',
      status: 'Idle',
      os_version: 'balenaOS 6.0.13',
      supervisor_version: '17.0.1',
      update_pending: false,
      update_failed: false,
      download_progress: null,
      ip_address: '192.168.1.20',
    });
    const first = await device.metrics();
    expect(first).toMatchObject({
      memory_total: 3796,
      storage_total: 29_664,
      storage_block_device: '/dev/mmcblk0',
    });
    expect(first.cpu_usage).toBeGreaterThan(0);
    expect(first.memory_usage).toBeLessThan(3796);
  });

  it('goes quiet while powered off and boots its services again after a reboot', async () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    const back = device.powerCycle('reboot');
    expect(statuses(device)).toEqual(['exited', 'exited']);
    await clock.runFor(10_000);
    await expect(back).resolves.toBe('back');
    const logs: LogLine[] = [];
    device.start({
      log: (line) => logs.push(line),
      changed: () => undefined,
      pollNow: () => undefined,
    });
    await clock.runFor(500);
    expect(statuses(device)).toEqual(['Running', 'Running']);
    expect(device.info().apps['app-uuid']?.releases.c1?.services.web?.status).toBe('Running');
    expect(logs[0]?.message).toBe('Supervisor starting');
    // The containers that ran before start again: nothing is installed anew.
    expect(messages(logs).filter((line) => line.includes('service'))).toEqual([]);
    await expect(device.powerCycle('shutdown')).resolves.toBe('off');
  });

  it('starts afresh an update the power cut short', async () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(500);
    const back = device.powerCycle('reboot');
    await clock.runFor(10_000);
    await expect(back).resolves.toBe('back');
    device.start({ log: () => undefined, changed: () => undefined, pollNow: () => undefined });
    // The agent fetches its target again after a boot.
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    expect(device.info().apps['app-uuid']).toMatchObject({
      release_uuid: 'c1',
      releases: { c1: { update_status: 'done' } },
    });
    expect(statuses(device)).toEqual(['Running', 'Running']);
  });

  it('recreates only the services whose variables changed, and logs the new values', async () => {
    const { clock, device, logs } = setup();
    device.applyTarget(
      target('c1', ['web', 'sensor-reader'], {}, { web: { GREETING: 'hello' } }),
      false,
    );
    await clock.runFor(10_000);
    expect(device.services.map((service) => service.environment)).toEqual([
      { GREETING: 'hello' },
      {},
    ]);
    logs.length = 0;
    device.applyTarget(
      target('c1', ['web', 'sensor-reader'], {}, { web: { GREETING: 'bonjour', COLOR: 'blue' } }),
      false,
    );
    await clock.runFor(1000);
    expect(device.services[0]?.environment).toEqual({ GREETING: 'bonjour', COLOR: 'blue' });
    expect(statuses(device)).toEqual(['Running', 'Running']);
    // The agent's lines about web, and web's own line on start (not its random chatter).
    const web = logs.filter(
      (line) =>
        line.serviceId === 1 && (line.isSystem === true || line.message.startsWith('Started with')),
    );
    expect(web.map((line) => [line.message, line.isSystem ?? false])).toEqual([
      ["Killing service 'web'", true],
      ["Killed service 'web'", true],
      ["Installing service 'web'", true],
      ["Starting service 'web'", true],
      ['Started with COLOR=blue, GREETING=bonjour', false],
    ]);
    // The other service never stopped.
    expect(logs.some((line) => line.serviceId === 2 && line.isSystem === true)).toBe(false);
    // The same variables again change nothing.
    logs.length = 0;
    device.applyTarget(
      target('c1', ['web', 'sensor-reader'], {}, { web: { GREETING: 'bonjour', COLOR: 'blue' } }),
      false,
    );
    await clock.runFor(1000);
    expect(logs.filter((line) => line.isSystem)).toEqual([]);
  });

  it('waits for the update lock before recreating a service with new variables', async () => {
    const { clock, device, logs } = setup();
    device.applyTarget(target('c1', ['web']), false);
    await clock.runFor(10_000);
    device.updateLocked = true;
    device.applyTarget(target('c1', ['web'], {}, { web: { MODE: 'fast' } }), false);
    await clock.runFor(1000);
    expect(messages(logs)).toContain('Updates are locked: the update waits for the lock');
    expect(device.services[0]?.environment).toEqual({});
    device.updateLocked = false;
    // The lock is looked at again after lockRetryMs.
    await clock.runFor(5000);
    expect(device.services[0]?.environment).toEqual({ MODE: 'fast' });
    expect(logs.filter((line) => line.message === 'Started with MODE=fast')).toHaveLength(1);
  });

  it('logs a configuration change the way balena-supervisor does', () => {
    const { device, logs } = setup();
    device.applyTarget(target('c1', ['web'], { BALENA_SUPERVISOR_POLL_INTERVAL: '60000' }), false);
    device.applyTarget(target('c1', ['web'], { BALENA_SUPERVISOR_POLL_INTERVAL: '60000' }), false);
    expect(messages(logs).filter((line) => line.includes('configuration change'))).toEqual([
      'Applying configuration change BALENA_SUPERVISOR_POLL_INTERVAL=60000',
      'Applied configuration change BALENA_SUPERVISOR_POLL_INTERVAL=60000',
    ]);
  });

  it('opens a simulated shell on the host, and in a service through the engine while it runs', async () => {
    const { clock, device } = setup();
    const open = (terminal: TerminalTarget) => {
      let output = '';
      let exit: number | null | undefined;
      const shell = device.openShell(
        terminal,
        { cols: 80, rows: 24 },
        {
          output: (data) => (output += Buffer.from(data).toString()),
          exit: (code) => (exit = code),
        },
      );
      return { shell, output: () => output, exit: () => exit };
    };
    expect(open({ kind: 'service', service: 'web' }).shell).toEqual({
      error: "Service 'web' is not running",
    });
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    const inWeb = open({ kind: 'service', service: 'web' });
    if ('error' in inWeb.shell) throw new Error(inWeb.shell.error);
    inWeb.shell.input(Buffer.from('ps\r'));
    await clock.runFor(0);
    expect(inWeb.output()).toContain('(service web)');
    expect(inWeb.output()).toContain('web [Running]');
    inWeb.shell.input(Buffer.from('exit\r'));
    await clock.runFor(0);
    expect(inWeb.exit()).toBe(0);
    const host = open({ kind: 'host' });
    if ('error' in host.shell) throw new Error(host.shell.error);
    host.shell.input(Buffer.from('hostname\r'));
    await clock.runFor(0);
    expect(host.output()).toContain('(host OS)');
    expect(host.output()).toContain('misty-river\r\n');
  });

  it('answers health checks and a diagnostics report from its simulated state', async () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(6000);
    const checks = await device.handleAction('checks', {});
    expect(checks.status).toBe(200);
    expect(checksReport.parse(checks.body).checks.map((check) => check.name)).toEqual([
      'check_disk_space',
      'check_memory',
      'check_timesync',
      'check_services_running',
      'check_cloud_connectivity',
      'check_under_voltage',
    ]);
    const stopping = device.handleAction('stop-service', { serviceName: 'web' });
    await clock.runFor(1000);
    expect((await stopping).status).toBe(200);
    const afterStop = checksReport.parse((await device.handleAction('checks', {})).body);
    // The release runs it: a stopped service fails the check until it is started again.
    expect(afterStop.checks.find((check) => check.name === 'check_services_running')).toMatchObject(
      { success: false, status: expect.stringContaining('web') },
    );
    const report = diagnoseReport.parse((await device.handleAction('diagnose', {})).body);
    expect(report.stdout).toMatch(/This device is simulated/);
    expect(report.stdout).toMatch(/web: /);
    expect(report.stdout).toMatch(/Supervisor starting/);
  });
});
