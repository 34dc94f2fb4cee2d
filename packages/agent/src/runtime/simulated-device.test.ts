import { describe, expect, it } from 'vitest';
import { Scheduler } from '../scheduler.js';
import type { DeviceTarget, TargetRelease } from '../target-types.js';
import { ManualClock } from '../test-support/manual-clock.js';
import type { LogLine } from './device-runtime.js';
import { SimulatedDevice } from './simulated-device.js';
import type { ActionParams, DeviceAction } from '@flotilla/shared/cloudlink/messages';
import { checksReport, diagnoseReport } from '@flotilla/shared/diagnostics/diagnostics';
import type { TerminalTarget } from '@flotilla/shared/terminal/terminal-protocol';

const target = (
  commit: string,
  services = ['web', 'sensor-reader'],
  config: Record<string, string> = {},
  environment: Record<string, Record<string, string>> = {},
  labels: Record<string, string> = {},
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
        labels,
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
      arch: 'aarch64',
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
  device.uuid = 'f'.repeat(32);
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
  device.services.map((service) => service.status);

const messages = (logs: readonly LogLine[]): string[] => logs.map((line) => line.message);

const imageOf = (service: string, commit: string): string =>
  `registry/${service}-${commit}@sha256:${'0'.repeat(64)}`;

// With downloads of 1 s and steps of 100 ms, a two-service release is in within 3 s.
describe('SimulatedDevice', () => {
  it('downloads a release with progress, then installs and runs its services', async () => {
    const { clock, device, logs } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(0);
    expect(device.info()).toMatchObject({
      status: 'Downloading',
      apps: { 'app-uuid': { releases: { c1: { update_status: 'downloading' } } } },
    });
    await clock.runFor(400);
    const progress =
      device.info().apps['app-uuid']?.releases.c1?.services.web?.download_progress ?? 0;
    expect(progress).toBeGreaterThan(20);
    expect(progress).toBeLessThan(100);
    const state = await device.handleAction('device-state', {});
    expect(state.body).toMatchObject({
      status: 'Downloading',
      update_pending: true,
      download_progress: progress,
      commit: null,
    });
    await clock.runFor(5000);
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
    expect(messages(logs)).toEqual(
      expect.arrayContaining([
        `Downloading image '${imageOf('web', 'c1')}'`,
        `Downloaded image '${imageOf('web', 'c1')}'`,
        "Installing service 'web'",
        "Starting service 'web'",
      ]),
    );
    // The services see the device as a real one's do.
    const spec = device.engine.inspectAll()[0]?.spec;
    expect(spec?.environment).toMatchObject({
      BALENA_DEVICE_UUID: 'f'.repeat(32),
      BALENA_DEVICE_ARCH: 'aarch64',
      BALENA_SERVICE_NAME: 'web',
    });
    // Running services produce application logs.
    await clock.runFor(4000);
    expect(logs.some((line) => !line.isSystem && line.serviceId !== undefined)).toBe(true);
  });

  it('updates to a new release: both reported while it downloads, then only the new one', async () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    device.applyTarget(target('c2', ['web']), false);
    await clock.runFor(500);
    expect(Object.keys(device.info().apps['app-uuid']?.releases ?? {})).toEqual(['c1', 'c2']);
    expect(device.info().apps['app-uuid']?.release_uuid).toBe('c1');
    await clock.runFor(10_000);
    expect(device.info().apps['app-uuid']).toEqual({
      release_uuid: 'c2',
      releases: {
        c2: {
          update_status: 'done',
          services: {
            web: { image: imageOf('web', 'c2'), status: 'Running', download_progress: null },
          },
        },
      },
    });
    // The release that left took its images with it.
    expect(device.engine.inspectAll()).toHaveLength(1);
  });

  // A supervisor converges on its target: a target that changes while an update is being
  // applied is followed once that update is in, although no newer target state arrives.
  it('follows a target that went back to the running release while an update was applied', async () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    device.applyTarget(target('c2'), false);
    // Two images of a second each, then the services are replaced.
    await clock.runFor(2100);
    expect(device.info().apps['app-uuid']?.releases.c2?.update_status).toBe('applying changes');
    device.applyTarget(target('c1'), false);
    await clock.runFor(20_000);
    const app = device.info().apps['app-uuid'];
    expect(app?.release_uuid).toBe('c1');
    expect(Object.keys(app?.releases ?? {})).toEqual(['c1']);
    expect(app?.releases.c1?.update_status).toBe('done');
    expect(statuses(device)).toEqual(['Running', 'Running']);
  });

  it('stops the services when the target lost its release while the first one was applied', async () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(2100);
    expect(device.info().apps['app-uuid']?.releases.c1?.update_status).toBe('applying changes');
    device.applyTarget(withRelease(target('c1'), null), false);
    await clock.runFor(20_000);
    expect(device.info().apps).toEqual({ 'app-uuid': { releases: {} } });
    expect(device.services).toEqual([]);
  });

  it('applies a newer update only after the one being applied, replacing what that one started', async () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    device.applyTarget(target('c2'), false);
    await clock.runFor(2100);
    expect(device.info().apps['app-uuid']?.releases.c2?.update_status).toBe('applying changes');
    // The images of c1 are still there: c3 needs no download.
    const images = target('c1');
    const c3 = images.app?.release && { ...images.app.release, commit: 'c3', id: 3 };
    device.applyTarget(withRelease(images, c3 ?? null), false);
    await clock.runFor(20_000);
    expect(device.info().apps['app-uuid']?.release_uuid).toBe('c3');
    expect(statuses(device)).toEqual(['Running', 'Running']);
    // Only c3's containers are left: c2's were started, then replaced.
    expect(device.engine.inspectAll().map(({ spec }) => spec.name.split('_').at(-1))).toEqual([
      'c3',
      'c3',
    ]);
  });

  it('holds a downloaded update while locked, and applies it when forced', async () => {
    const { clock, device, logs } = setup(true);
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    expect(device.info().apps['app-uuid']?.releases.c1?.update_status).toBe('downloaded');
    expect((await device.handleAction('device-state', {})).body).toMatchObject({
      update_pending: true,
      update_downloaded: true,
    });
    expect(messages(logs)).toContain('Updates are locked: the update waits for the lock');
    expect(device.services).toEqual([]);
    device.applyTarget(target('c1'), true);
    await clock.runFor(2000);
    expect(device.info().apps['app-uuid']).toMatchObject({
      release_uuid: 'c1',
      releases: { c1: { update_status: 'done' } },
    });
  });

  it('kills a service before downloading its new image when its label asks (kill-then-download)', async () => {
    const { clock, device, logs } = setup();
    device.applyTarget(target('c1', ['web']), false);
    await clock.runFor(10_000);
    logs.length = 0;
    device.applyTarget(
      target('c2', ['web'], {}, {}, { 'io.balena.update.strategy': 'kill-then-download' }),
      false,
    );
    await clock.runFor(500);
    // Killed, and downloading while nothing runs.
    expect(statuses(device)).toEqual([]);
    expect(device.info().status).toBe('Downloading');
    await clock.runFor(10_000);
    const lines = messages(logs).filter((line) => /service 'web'|image/.test(line));
    expect(lines).toEqual([
      "Killing service 'web'",
      "Killed service 'web'",
      `Downloading image '${imageOf('web', 'c2')}'`,
      `Downloaded image '${imageOf('web', 'c2')}'`,
      "Installing service 'web'",
      "Starting service 'web'",
      // The previous release's image, which nothing uses any more.
      `Deleting image '${imageOf('web', 'c1')}'`,
    ]);
    expect(statuses(device)).toEqual(['Running']);
  });

  it('downloads the new image while the old service runs on (download-then-kill, the default)', async () => {
    const { clock, device, logs } = setup();
    device.applyTarget(target('c1', ['web']), false);
    await clock.runFor(10_000);
    logs.length = 0;
    device.applyTarget(target('c2', ['web']), false);
    await clock.runFor(500);
    expect(statuses(device)).toEqual(['Running']);
    await clock.runFor(10_000);
    const lines = messages(logs).filter((line) => /service 'web'|image/.test(line));
    expect(lines).toEqual([
      `Downloading image '${imageOf('web', 'c2')}'`,
      `Downloaded image '${imageOf('web', 'c2')}'`,
      "Killing service 'web'",
      "Killed service 'web'",
      "Installing service 'web'",
      "Starting service 'web'",
      `Deleting image '${imageOf('web', 'c1')}'`,
    ]);
    expect(await device.engine.hasImage(imageOf('web', 'c1'))).toBe(false);
    expect(await device.engine.hasImage(imageOf('web', 'c2'))).toBe(true);
  });

  it('hands over: the new service runs beside the old one until it signals it took over', async () => {
    const { clock, device, logs } = setup();
    const handOver = { 'io.balena.update.strategy': 'hand-over' };
    device.applyTarget(target('c1', ['web'], {}, {}, handOver), false);
    await clock.runFor(10_000);
    logs.length = 0;
    device.applyTarget(
      target('c2', ['web'], {}, {}, { ...handOver, 'io.balena.update.handover-timeout': '30000' }),
      false,
    );
    // A download of a second, then a step to create and one to start.
    await clock.runFor(1250);
    expect(messages(logs)).toContain("Waiting for service 'web' to hand over");
    expect(statuses(device)).toEqual(['Running', 'Running']);
    expect(device.info().apps['app-uuid']?.releases.c2?.update_status).toBe('applying changes');
    // A step after it started, the new service writes handover-complete into its /tmp/balena,
    // long before the timeout; the old one is then killed (a step to stop it).
    await clock.runFor(300);
    expect(messages(logs)).toContain("Service 'web' handed over");
    expect(messages(logs)).not.toContain("Service 'web' did not hand over within 30000 ms");
    await clock.runFor(500);
    expect(device.engine.inspectAll().map(({ spec }) => spec.image)).toEqual([
      imageOf('web', 'c2'),
    ]);
    expect(device.info().apps['app-uuid']?.release_uuid).toBe('c2');
  });

  it('fails an update on a full disk as a real engine does, and carries on once there is room', async () => {
    const { clock, device, logs } = setup();
    device.applyTarget(target('c1', ['web']), false);
    await clock.runFor(10_000);
    device.diskFull = true;
    expect((await device.metrics()).storage_usage).toBeGreaterThan(0.9 * 29_664);
    const checks = checksReport.parse((await device.handleAction('checks', {})).body);
    expect(checks.checks.find((check) => check.name === 'check_disk_space')?.success).toBe(false);
    logs.length = 0;
    device.applyTarget(target('c2', ['web']), false);
    await clock.runFor(1000);
    expect(messages(logs)).toContain(
      `Not enough disk space to download image '${imageOf('web', 'c2')}': write /var/lib/docker/tmp/layer: no space left on device; trying again`,
    );
    expect(device.info().apps['app-uuid']).toMatchObject({
      release_uuid: 'c1',
      releases: { c2: { update_status: 'aborted' } },
    });
    expect(statuses(device)).toEqual(['Running']);
    // Room again: the next try (the retry interval, doubled after a failure) goes through.
    device.diskFull = false;
    await clock.runFor(12_000);
    expect(device.info().apps['app-uuid']?.release_uuid).toBe('c2');
  });

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
