import { describe, expect, it } from 'vitest';
import { Scheduler } from '../scheduler.js';
import type { DeviceTarget, TargetRelease } from '../target-types.js';
import { ManualClock } from '../test-support/manual-clock.js';
import type { LogLine } from './device-runtime.js';
import { SimulatedDevice } from './simulated-device.js';
import { checksReport, diagnoseReport } from '@flotilla/shared/diagnostics/diagnostics';

const target = (
  commit: string,
  services = ['web', 'sensor-reader'],
  config: Record<string, string> = {},
  environment: Record<string, Record<string, string>> = {},
): DeviceTarget => ({
  name: 'misty-river',
  active: true,
  config,
  app: {
    uuid: 'app-uuid',
    id: 7,
    name: 'demo',
    release: {
      commit,
      id: 1,
      volumes: [],
      services: services.map((name, index) => ({
        name,
        id: index + 1,
        imageId: 100 + index,
        image: `registry/${name}-${commit}@sha256:${'0'.repeat(64)}`,
        running: true,
        environment: environment[name] ?? {},
        labels: {},
        composition: {},
      })),
    },
  },
});

// The same fleet app with another release (or none).
const withRelease = (base: DeviceTarget, release: TargetRelease | null): DeviceTarget => ({
  ...base,
  app: base.app && { ...base.app, release },
});

const setup = (updateLocked = false) => {
  const clock = new ManualClock(0);
  const scheduler = new Scheduler(clock);
  const device = new SimulatedDevice({
    profile: {
      name: 'misty-river',
      deviceType: 'raspberrypi4-64',
      osVersion: 'balenaOS 6.0.13',
      osVariant: 'prod',
      supervisorVersion: '17.0.1',
      ipAddress: '192.168.1.20',
      macAddress: 'DC:A6:32:01:02:03',
      metrics: {
        memoryTotalMb: 3796,
        storageTotalMb: 29_664,
        storageBlockDevice: '/dev/mmcblk0',
        mayUndervolt: true,
      },
    },
    scheduler,
    random: () => 0.5,
    timing: {
      downloadMs: [1000, 1000],
      stepMs: 100,
      lockRetryMs: 5000,
      rebootOfflineMs: [10_000, 10_000],
      logIntervalMs: [2000, 2000],
    },
    updateLocked,
  });
  const logs: LogLine[] = [];
  const polls: boolean[] = [];
  let changes = 0;
  device.start({
    log: (line) => logs.push(line),
    changed: () => changes++,
    pollNow: (force) => polls.push(force),
  });
  return { clock, device, logs, polls, changes: () => changes };
};

const statuses = (device: SimulatedDevice): string[] =>
  device.app.services.map((service) => service.status);

describe('SimulatedDevice', () => {
  it('downloads a release with progress, then installs and runs its services', () => {
    const { clock, device, logs } = setup();
    device.applyTarget(target('c1'), false);
    expect(device.info()).toMatchObject({
      status: 'Downloading',
      apps: { 'app-uuid': { releases: { c1: { update_status: 'downloading' } } } },
    });
    clock.advance(400);
    const progress =
      device.info().apps['app-uuid']?.releases.c1?.services.web?.download_progress ?? 0;
    expect(progress).toBeGreaterThan(20);
    expect(progress).toBeLessThan(100);
    clock.advance(5000);
    expect(device.info()).toMatchObject({
      status: 'Idle',
      apps: {
        'app-uuid': {
          release_uuid: 'c1',
          releases: {
            c1: {
              update_status: 'done',
              services: { web: { status: 'Running', download_progress: null } },
            },
          },
        },
      },
    });
    const messages = logs.map((line) => line.message);
    expect(messages).toContain(`Downloading image 'registry/web-c1@sha256:${'0'.repeat(64)}'`);
    expect(messages).toContain("Started service 'web sha256:000000000000'");
    // Running services produce application logs.
    clock.advance(4000);
    expect(logs.some((line) => !line.isSystem && line.serviceId !== undefined)).toBe(true);
  });

  it('updates to a new release: both reported while it downloads, then only the new one', () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    clock.advance(10_000);
    device.applyTarget(target('c2', ['web']), false);
    expect(Object.keys(device.info().apps['app-uuid']?.releases ?? {})).toEqual(['c1', 'c2']);
    expect(device.info().apps['app-uuid']?.release_uuid).toBe('c1');
    clock.advance(10_000);
    expect(device.info().apps['app-uuid']).toEqual({
      release_uuid: 'c2',
      releases: {
        c2: {
          update_status: 'done',
          services: {
            web: {
              image: `registry/web-c2@sha256:${'0'.repeat(64)}`,
              status: 'Running',
              download_progress: null,
            },
          },
        },
      },
    });
  });

  // A supervisor converges on its target: a target that changes while an update is being
  // applied is followed once that update is in, although no newer target state arrives.
  it('follows a target that went back to the running release while an update was applied', () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    clock.advance(10_000);
    device.applyTarget(target('c2'), false);
    clock.advance(1000);
    expect(device.info().apps['app-uuid']?.releases.c2?.update_status).toBe('applying changes');
    device.applyTarget(target('c1'), false);
    clock.advance(20_000);
    const app = device.info().apps['app-uuid'];
    expect(app?.release_uuid).toBe('c1');
    expect(Object.keys(app?.releases ?? {})).toEqual(['c1']);
    expect(app?.releases.c1?.update_status).toBe('done');
    expect(statuses(device)).toEqual(['Running', 'Running']);
  });

  it('stops the services when the target lost its release while the first one was applied', () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    clock.advance(1000);
    expect(device.info().apps['app-uuid']?.releases.c1?.update_status).toBe('applying changes');
    device.applyTarget(withRelease(target('c1'), null), false);
    clock.advance(20_000);
    expect(device.info().apps).toEqual({ 'app-uuid': { releases: {} } });
    expect(device.app.services).toEqual([]);
  });

  it('applies a newer update only after the one being applied, stopping what that one started', () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    clock.advance(10_000);
    device.applyTarget(target('c2'), false);
    clock.advance(1000);
    const applying = device.app.pending;
    expect(applying?.phase).toBe('applying');
    // The images of c1 are still there, so c3 is downloaded before c2 is in.
    const images = target('c1');
    const c3 = images.app?.release && { ...images.app.release, commit: 'c3' };
    device.applyTarget(withRelease(images, c3 ?? null), false);
    clock.advance(20_000);
    expect(device.info().apps['app-uuid']?.release_uuid).toBe('c3');
    expect(statuses(device)).toEqual(['Running', 'Running']);
    expect(applying?.services.map((service) => service.status)).toEqual(['Stopped', 'Stopped']);
  });

  it('holds a downloaded update while locked, and applies it when forced', () => {
    const { clock, device, logs } = setup(true);
    device.applyTarget(target('c1'), false);
    clock.advance(10_000);
    expect(device.info().apps['app-uuid']?.releases.c1?.update_status).toBe('downloaded');
    expect(logs.map((line) => line.message)).toContain('Updates are locked, retrying in 5s');
    device.applyTarget(target('c1'), true);
    clock.advance(2000);
    expect(device.info().apps['app-uuid']).toMatchObject({
      release_uuid: 'c1',
      releases: { c1: { update_status: 'done' } },
    });
  });

  it('answers 423 to locked actions unless forced, and honours the override variable', async () => {
    const { device, polls } = setup(true);
    expect((await device.handleAction('reboot', {})).status).toBe(423);
    expect((await device.handleAction('shutdown', {})).status).toBe(423);
    expect((await device.handleAction('restart-services', {})).status).toBe(423);
    expect((await device.handleAction('update', {})).status).toBe(423);
    expect(polls).toEqual([]);
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
    clock.advance(10_000);
    expect((await device.handleAction('stop-service', { imageId: 100 })).status).toBe(200);
    clock.advance(500);
    expect(statuses(device)).toEqual(['exited', 'Running']);
    expect((await device.handleAction('start-service', { serviceName: 'web' })).status).toBe(200);
    clock.advance(500);
    expect(statuses(device)).toEqual(['Running', 'Running']);
    expect((await device.handleAction('restart-services', {})).status).toBe(200);
    expect(statuses(device)).toEqual(['Stopping', 'Stopping']);
    clock.advance(500);
    expect(statuses(device)).toEqual(['Running', 'Running']);
    expect((await device.handleAction('restart-service', { imageId: 999 })).status).toBe(404);
    expect((await device.handleAction('restart-service', {})).status).toBe(400);
  });

  it('reports a /v1/device-like state and wandering metrics', async () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    clock.advance(10_000);
    const state = await device.handleAction('device-state', {});
    expect(state.body).toMatchObject({
      api_port: 48484,
      commit: 'c1',
      status: 'Idle',
      os_version: 'balenaOS 6.0.13',
      supervisor_version: '17.0.1',
      update_pending: false,
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
    clock.advance(10_000);
    const back = device.powerCycle('reboot');
    expect(statuses(device)).toEqual(['Installed', 'Installed']);
    clock.advance(10_000);
    await expect(back).resolves.toBe('back');
    const logs: LogLine[] = [];
    device.start({
      log: (line) => logs.push(line),
      changed: () => undefined,
      pollNow: () => undefined,
    });
    clock.advance(500);
    expect(statuses(device)).toEqual(['Running', 'Running']);
    expect(logs[0]?.message).toBe('Supervisor starting');
    await expect(device.powerCycle('shutdown')).resolves.toBe('off');
  });

  it('recreates only the services whose variables changed, and logs the new values', () => {
    const { clock, device, logs } = setup();
    device.applyTarget(
      target('c1', ['web', 'sensor-reader'], {}, { web: { GREETING: 'hello' } }),
      false,
    );
    clock.advance(10_000);
    expect(device.app.services.map((service) => service.environment)).toEqual([
      { GREETING: 'hello' },
      {},
    ]);
    logs.length = 0;
    device.applyTarget(
      target('c1', ['web', 'sensor-reader'], {}, { web: { GREETING: 'bonjour', COLOR: 'blue' } }),
      false,
    );
    // The new environment is the service's at once; the container is recreated with it.
    expect(device.app.services[0]?.environment).toEqual({ GREETING: 'bonjour', COLOR: 'blue' });
    clock.advance(1000);
    expect(statuses(device)).toEqual(['Running', 'Running']);
    // The agent's lines about web, and web's own line on start (not its random chatter).
    const web = logs.filter(
      (line) =>
        line.serviceId === 1 && (line.isSystem === true || line.message.startsWith('Started with')),
    );
    expect(web.map((line) => [line.message, line.isSystem ?? false])).toEqual([
      [
        "Restarting service 'web sha256:000000000000' to apply its new environment (COLOR, GREETING)",
        true,
      ],
      ["Killing service 'web sha256:000000000000'", true],
      ["Killed service 'web sha256:000000000000'", true],
      ["Starting service 'web sha256:000000000000'", true],
      ["Started service 'web sha256:000000000000'", true],
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
    clock.advance(1000);
    expect(logs.filter((line) => line.isSystem)).toEqual([]);
  });

  it('waits for the update lock before recreating a service with new variables', () => {
    const { clock, device, logs } = setup();
    device.applyTarget(target('c1', ['web']), false);
    clock.advance(10_000);
    device.updateLocked = true;
    device.applyTarget(target('c1', ['web'], {}, { web: { MODE: 'fast' } }), false);
    expect(logs.map((line) => line.message)).toContain('Updates are locked, retrying in 5s');
    expect(device.app.services[0]?.environment).toEqual({});
    device.updateLocked = false;
    clock.advance(6000);
    expect(device.app.services[0]?.environment).toEqual({ MODE: 'fast' });
    expect(logs.filter((line) => line.message === 'Started with MODE=fast')).toHaveLength(1);
  });

  it('logs a configuration change the way balena-supervisor does', () => {
    const { device, logs } = setup();
    device.applyTarget(target('c1', ['web'], { BALENA_SUPERVISOR_POLL_INTERVAL: '60000' }), false);
    device.applyTarget(target('c1', ['web'], { BALENA_SUPERVISOR_POLL_INTERVAL: '60000' }), false);
    expect(
      logs
        .filter((line) => line.message.includes('configuration change'))
        .map((line) => line.message),
    ).toEqual([
      'Applying configuration change BALENA_SUPERVISOR_POLL_INTERVAL=60000',
      'Applied configuration change BALENA_SUPERVISOR_POLL_INTERVAL=60000',
    ]);
  });

  it('answers health checks and a diagnostics report from its simulated state', async () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    clock.advance(6000);
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
    await device.handleAction('stop-service', { serviceName: 'web' });
    clock.advance(1000);
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
