import { checksReport, diagnoseReport } from '@flotilla/shared/diagnostics/diagnostics';
import { describe, expect, it } from 'vitest';
import { defaultHostSettings, type HostSettings } from '../config.js';
import { silentLogger } from '../logger.js';
import { Scheduler } from '../scheduler.js';
import type { DeviceTarget } from '../target-types.js';
import { ManualClock } from '../test-support/manual-clock.js';
import type { CommandRunner } from './command-runner.js';
import { HostDevice } from './host-device.js';

const target: DeviceTarget = {
  name: 'gateway',
  active: true,
  config: {},
  app: {
    uuid: 'app-uuid',
    id: 7,
    name: 'demo',
    release: {
      commit: 'c1',
      id: 1,
      volumes: [],
      services: [
        {
          name: 'web',
          id: 1,
          imageId: 11,
          image: 'web:1',
          running: true,
          environment: {},
          labels: {},
          composition: {},
        },
        {
          name: 'db',
          id: 2,
          imageId: 12,
          image: 'db:1',
          running: true,
          environment: {},
          labels: {},
          composition: {},
        },
      ],
    },
  },
};

const setup = (settings: Partial<HostSettings> = {}, locked = false) => {
  const clock = new ManualClock(0);
  const scheduler = new Scheduler(clock);
  const commands: string[][] = [];
  // The environment each command ran with, by command line.
  const environments = new Map<string, Readonly<Record<string, string>> | undefined>();
  const down = new Set(['db']);
  const runner: CommandRunner = async (command, environment) => {
    commands.push([...command]);
    environments.set(command.join(' '), environment);
    const failed = command[0] === 'is-active' && down.has(command[1] ?? '');
    return { exitCode: failed ? 3 : 0, stdout: '', stderr: '' };
  };
  const device = new HostDevice({
    settings: { ...defaultHostSettings, ...settings },
    runner,
    scheduler,
    logger: silentLogger,
    supervisorVersion: '17.1.0',
    powerGraceMs: 1000,
    fileExists: async (path) => locked && path === '/tmp/balena/updates.lock',
  });
  let changes = 0;
  const polls: boolean[] = [];
  const logs: string[] = [];
  device.start({
    log: (line) => logs.push(line.message),
    changed: () => changes++,
    pollNow: (force) => polls.push(force),
  });
  const settle = async (): Promise<void> => {
    for (let index = 0; index < 10; index++) await new Promise((resolve) => setImmediate(resolve));
  };
  return {
    clock,
    device,
    logs,
    commands,
    environments,
    down,
    polls,
    settle,
    changes: () => changes,
  };
};

const withStatus = {
  serviceCommands: {
    status: ['is-active', '{service}'],
    start: null,
    stop: null,
    restart: ['restart', '{service}'],
  },
};

describe('HostDevice', () => {
  it('reports a failed supervisor update in its state', () => {
    const { device, changes } = setup();
    expect(device.info()).not.toHaveProperty('provisioning_state');
    const failure =
      'Supervisor update to 17.3.0 failed: it exited with code 1; rolled back to 17.1.0';
    device.supervisorUpdateFailed(failure);
    expect(changes()).toBe(1);
    expect(device.info()).toMatchObject({
      provisioning_state: failure,
      provisioning_progress: null,
    });
  });

  it('claims no release without a way to observe services', () => {
    const { device } = setup();
    device.applyTarget(target);
    expect(device.info()).toMatchObject({
      status: 'Idle',
      supervisor_version: '17.1.0',
      apps: { 'app-uuid': { releases: {} } },
    });
  });

  it('reports services through the status command; the release counts once all run', async () => {
    const { clock, device, down, settle } = setup(withStatus);
    device.applyTarget(target);
    clock.advance(0);
    await settle();
    expect(device.info().apps['app-uuid']).toEqual({
      releases: {
        c1: {
          services: {
            web: { image: 'web:1', status: 'Running', download_progress: null },
            db: { image: 'db:1', status: 'exited', download_progress: null },
          },
        },
      },
    });
    down.clear();
    clock.advance(30_000);
    await settle();
    expect(device.info().apps['app-uuid']).toMatchObject({
      release_uuid: 'c1',
      releases: { c1: { update_status: 'done' } },
    });
  });

  it('checks this machine, and the services the status command reads', async () => {
    const { clock, device, settle } = setup(withStatus);
    device.applyTarget(target);
    clock.advance(0);
    await settle();
    const checks = checksReport.parse((await device.handleAction('checks', {})).body).checks;
    expect(checks.map((check) => check.name)).toContain('check_memory');
    expect(checks.find((check) => check.name === 'check_services_running')).toEqual({
      name: 'check_services_running',
      success: false,
      status: 'Not running: db (exited)',
    });
    const report = diagnoseReport.parse((await device.handleAction('diagnose', {})).body);
    expect(report.stdout).toMatch(/=== Recent agent log ===\n.*Flotilla agent starting/);

    const bare = setup();
    bare.device.applyTarget(target);
    const without = checksReport.parse((await bare.device.handleAction('checks', {})).body);
    expect(without.checks.map((check) => check.name)).not.toContain('check_services_running');
  });

  it('refuses power actions while a lock file exists, unless forced', async () => {
    const { device } = setup({}, true);
    expect((await device.handleAction('reboot', {})).status).toBe(423);
    expect(await device.handleAction('reboot', { force: true })).toMatchObject({
      status: 200,
      then: 'reboot',
    });
  });

  it('reboots through the configured command and comes back if the OS did not', async () => {
    const { clock, device, commands, settle } = setup({ rebootCommand: ['fake-reboot', 'now'] });
    const result = device.powerCycle('reboot');
    await settle();
    expect(commands).toEqual([['fake-reboot', 'now']]);
    clock.advance(1000);
    await expect(result).resolves.toBe('back');
  });

  it('runs service commands, and says what it cannot do', async () => {
    const { device, commands, polls } = setup(withStatus);
    device.applyTarget(target);
    expect((await device.handleAction('restart-service', { serviceName: 'web' })).status).toBe(200);
    expect(commands).toContainEqual(['restart', 'web']);
    expect((await device.handleAction('stop-service', { serviceName: 'web' })).status).toBe(501);
    expect((await device.handleAction('purge', {})).status).toBe(501);
    expect((await device.handleAction('update', { force: true })).status).toBe(200);
    expect(polls).toEqual([true]);
    expect((await device.handleAction('device-state', {})).body).toMatchObject({
      api_port: 48484,
      status: 'Idle',
    });
  });

  it('reads real metrics from the machine', async () => {
    const { device } = setup();
    const metrics = await device.metrics();
    expect(metrics.memory_total).toBeGreaterThan(0);
    expect(metrics.memory_usage).toBeGreaterThan(0);
    expect(metrics.cpu_usage).toBeGreaterThanOrEqual(0);
    expect(metrics.cpu_usage).toBeLessThanOrEqual(100);
  });

  it('restarts a service whose variables changed, with them in its environment', async () => {
    const { device, commands, environments, logs } = setup(withStatus);
    device.applyTarget(target);
    await device.environmentSettled;
    const withGreeting = (greeting: string): DeviceTarget => ({
      ...target,
      app: target.app && {
        ...target.app,
        release: target.app.release && {
          ...target.app.release,
          services: target.app.release.services.map((service) =>
            service.name === 'web' ? { ...service, environment: { GREETING: greeting } } : service,
          ),
        },
      },
    });
    device.applyTarget(withGreeting('hello'));
    await device.environmentSettled;
    expect(commands.filter((command) => command[0] === 'restart')).toEqual([['restart', 'web']]);
    expect(environments.get('restart web')).toEqual({ GREETING: 'hello' });
    expect(logs).toContain("Restarting service 'web' to apply its new environment (GREETING)");
    // The same variables again: nothing to restart.
    device.applyTarget(withGreeting('hello'));
    await device.environmentSettled;
    expect(commands.filter((command) => command[0] === 'restart')).toHaveLength(1);
  });

  it('leaves a service alone while an update lock is held', async () => {
    const { device, commands, logs } = setup(withStatus, true);
    device.applyTarget(target);
    await device.environmentSettled;
    const release = target.app?.release;
    if (!target.app || !release) throw new Error('no release');
    device.applyTarget({
      ...target,
      app: {
        ...target.app,
        release: {
          ...release,
          services: release.services.map((service) => ({ ...service, environment: { A: '1' } })),
        },
      },
    });
    await device.environmentSettled;
    expect(commands.some((command) => command[0] === 'restart')).toBe(false);
    expect(logs).toContain(
      "Updates are locked: service 'web' gets its new environment (A) when it restarts",
    );
  });
});
