import type { TerminalSize, TerminalTarget } from '@flotilla/shared/terminal/terminal-protocol';
import type { Shell, ShellIo } from './shell.js';
import type { SimulatedShellState } from './simulated-shell.js';
import { openSimulatedShell } from './simulated-terminal.js';
import { openSimulatedWeb } from './simulated-web.js';
import type { ActionParams, DeviceAction } from '@flotilla/shared/cloudlink/messages';
import { between, type Random } from '../clock.js';
import type { Scheduler, TaskHandle } from '../scheduler.js';
import { changedNames, type DeviceTarget, updateLockOverridden } from '../target-types.js';
import {
  type ActionOutcome,
  type DeviceInfo,
  type DeviceMetrics,
  type DeviceRuntime,
  failure,
  lockedOutcome,
  ok,
  type PowerAction,
  type RuntimeEvents,
} from './device-runtime.js';
import { describeEnvironmentChange } from './service-environment.js';
import { serviceLogLine } from './service-logs.js';
import {
  type SimulatedState,
  simulatedChecks,
  simulatedDiagnoseReport,
} from './simulated-checks.js';
import { SimulatedApp, type SimulatedTiming } from './simulated-app.js';
import { type MetricsProfile, WanderingMetrics } from './simulated-metrics.js';

export type SimulatedProfile = {
  name: string;
  deviceType: string;
  osVersion: string;
  osVariant: 'prod' | 'dev';
  supervisorVersion: string;
  ipAddress: string;
  macAddress: string;
  metrics: MetricsProfile;
};

export type SimulatedDeviceTiming = SimulatedTiming & {
  rebootOfflineMs: readonly [number, number];
  // The spacing of application log lines, picked per line.
  logIntervalMs: readonly [number, number];
};

export type SimulatedDeviceOptions = {
  profile: SimulatedProfile;
  scheduler: Scheduler;
  random: Random;
  timing: SimulatedDeviceTiming;
  updateLocked?: boolean;
};

const recentLogLines = 50;

const lockedActions: readonly DeviceAction[] = [
  'reboot',
  'shutdown',
  'update',
  'restart-services',
  'purge',
];

// A device that exists only in memory: it boots, downloads and runs releases, logs, wanders
// in its metrics, honours update locks and power-cycles, all on the shared scheduler.
export class SimulatedDevice implements DeviceRuntime {
  readonly profile: SimulatedProfile;
  // An application holds an update lock: reboot, shutdown, update, restart and purge answer
  // 423 unless forced, and new releases wait.
  updateLocked: boolean;
  readonly #scheduler: Scheduler;
  readonly #random: Random;
  readonly #timing: SimulatedDeviceTiming;
  readonly #app: SimulatedApp;
  readonly #metrics: WanderingMetrics;
  #events: RuntimeEvents | null = null;
  #config: Readonly<Record<string, string>> = {};
  #logTask: TaskHandle | null = null;
  #blinks = 0;
  #startedAt = 0;
  // The system lines a diagnostics report ends with.
  readonly #recentLog: string[] = [];

  constructor(options: SimulatedDeviceOptions) {
    this.profile = options.profile;
    this.updateLocked = options.updateLocked ?? false;
    this.#scheduler = options.scheduler;
    this.#random = options.random;
    this.#timing = options.timing;
    this.#metrics = new WanderingMetrics(options.profile.metrics, options.random);
    this.#app = new SimulatedApp(options.scheduler, options.random, options.timing, {
      log: (message, serviceId) => this.#systemLog(message, serviceId),
      serviceLog: (message, serviceId) =>
        this.#events?.log({
          message,
          timestamp: this.#scheduler.now(),
          ...(serviceId === undefined ? {} : { serviceId }),
        }),
      changed: () => this.#events?.changed(),
      locked: (force) => this.#locked(force),
    });
  }

  get app(): SimulatedApp {
    return this.#app;
  }

  // How many identify requests arrived (the simulated LED has nothing else to show).
  get blinks(): number {
    return this.#blinks;
  }

  start(events: RuntimeEvents): void {
    this.#events = events;
    this.#startedAt = this.#scheduler.now();
    this.#systemLog('Supervisor starting');
    this.#metrics.bump(30);
    this.#app.boot();
    this.#armLogs();
  }

  stop(): void {
    this.#logTask?.cancel();
    this.#logTask = null;
    this.#app.halt();
    this.#events = null;
  }

  applyTarget(target: DeviceTarget, force: boolean): void {
    const changed = changedNames(this.#config, target.config);
    if (changed.length > 0) {
      // balena-supervisor's lines for a configuration change.
      const change = describeEnvironmentChange(changed, target.config);
      this.#systemLog(`Applying configuration change ${change}`);
      this.#config = target.config;
      this.#systemLog(`Applied configuration change ${change}`);
    }
    this.#app.setTarget(target.app, force);
  }

  info(): DeviceInfo {
    const { profile } = this;
    return {
      status: this.#app.status(),
      os_version: profile.osVersion,
      os_variant: profile.osVariant,
      supervisor_version: profile.supervisorVersion,
      ip_address: profile.ipAddress,
      mac_address: profile.macAddress,
      apps: this.#app.report(),
    };
  }

  async metrics(): Promise<DeviceMetrics> {
    const running = this.#app.services.filter((service) => service.status === 'Running');
    return this.#metrics.next(running.length);
  }

  async handleAction(action: DeviceAction, params: ActionParams): Promise<ActionOutcome> {
    if (lockedActions.includes(action) && this.#locked(params.force === true)) {
      this.#systemLog(`Updates are locked: ${action} refused (use force to override the lock)`);
      return lockedOutcome();
    }
    switch (action) {
      case 'ping':
        return ok();
      case 'blink':
        this.#blinks++;
        this.#systemLog('Identify: blinking the LED for 15 s');
        return ok();
      case 'restart-services':
        this.#systemLog('Restarting services');
        this.#app.restartAll();
        return ok();
      case 'purge':
        this.#app.purge(params.appId ?? null);
        return ok({ Data: 'OK', Error: '' });
      case 'update':
        this.#events?.pollNow(params.force === true);
        return ok({ Data: 'OK', Error: null });
      case 'reboot':
        this.#systemLog('Rebooting');
        return { ...ok({ Data: 'OK', Error: null }), then: 'reboot' };
      case 'shutdown':
        this.#systemLog('Shutting down');
        return { ...ok({ Data: 'OK', Error: null }), then: 'shutdown' };
      case 'device-state':
        return ok(this.#deviceState());
      case 'checks':
        return ok(simulatedChecks(await this.#diagnosticState()));
      case 'diagnose':
        return ok(simulatedDiagnoseReport(await this.#diagnosticState()));
      case 'start-service':
      case 'stop-service':
      case 'restart-service':
        return this.#serviceAction(action, params);
    }
  }

  async powerCycle(action: PowerAction): Promise<'back' | 'off'> {
    this.stop();
    if (action === 'shutdown') return 'off';
    const offline = between(this.#random, ...this.#timing.rebootOfflineMs);
    await new Promise<void>((resolve) => this.#scheduler.after(offline, resolve));
    return 'back';
  }

  #serviceAction(action: DeviceAction, params: ActionParams): ActionOutcome {
    if (params.imageId === undefined && params.serviceName === undefined) {
      return failure(400, 'imageId or serviceName is required');
    }
    const service = this.#app.findService(params.imageId, params.serviceName);
    if (!service) return failure(404, 'Service not found, a container must exist for this action');
    if (action === 'start-service') this.#app.startService(service);
    else if (action === 'stop-service') this.#app.stopService(service);
    else this.#app.restartService(service);
    return ok();
  }

  // What the supervisor's GET /v1/device answers.
  #deviceState(): Record<string, unknown> {
    const { profile } = this;
    const pending = this.#app.pending;
    return {
      api_port: 48484,
      ip_address: profile.ipAddress,
      mac_address: profile.macAddress,
      os_version: profile.osVersion,
      supervisor_version: profile.supervisorVersion,
      update_pending: pending !== null,
      update_downloaded: pending?.phase === 'downloaded',
      update_failed: false,
      commit: this.#app.current?.commit ?? null,
      status: this.#app.status(),
      download_progress: this.#app.downloadProgress(),
    };
  }

  #locked(force: boolean): boolean {
    return this.updateLocked && !force && !updateLockOverridden(this.#config);
  }

  openShell(target: TerminalTarget, _size: TerminalSize, io: ShellIo): Shell | { error: string } {
    return openSimulatedShell(target, () => this.#shellState(), io);
  }

  // The public device URL shows a small status page of this device.
  openTunnel(io: ShellIo, uuid: string): Shell {
    return openSimulatedWeb(
      () => ({
        name: this.profile.name,
        uuid,
        deviceType: this.profile.deviceType,
        release: this.#app.current?.commit ?? null,
        uptimeMs: this.#scheduler.now() - this.#startedAt,
      }),
      io,
    );
  }

  #shellState(): SimulatedShellState {
    const { profile } = this;
    return {
      hostname: profile.name,
      deviceType: profile.deviceType,
      osVersion: profile.osVersion,
      uptimeMs: this.#scheduler.now() - this.#startedAt,
      storageUsedMb: this.#metrics.storageUsedMb,
      storageTotalMb: profile.metrics.storageTotalMb,
      services: this.#app.services,
    };
  }

  async #diagnosticState(): Promise<SimulatedState> {
    const { profile } = this;
    return {
      name: profile.name,
      deviceType: profile.deviceType,
      osVersion: profile.osVersion,
      ipAddress: profile.ipAddress,
      macAddress: profile.macAddress,
      uptimeMs: this.#scheduler.now() - this.#startedAt,
      metrics: await this.metrics(),
      services: this.#app.services,
      recentLog: this.#recentLog,
    };
  }

  #systemLog(message: string, serviceId?: number): void {
    const timestamp = this.#scheduler.now();
    this.#recentLog.push(`${new Date(timestamp).toISOString()} ${message}`);
    if (this.#recentLog.length > recentLogLines) this.#recentLog.shift();
    this.#events?.log({
      message,
      timestamp,
      isSystem: true,
      ...(serviceId === undefined ? {} : { serviceId }),
    });
  }

  #armLogs(): void {
    const delay = between(this.#random, ...this.#timing.logIntervalMs);
    this.#logTask = this.#scheduler.after(delay, () => {
      this.#logTask = null;
      const running = this.#app.services.filter((service) => service.status === 'Running');
      const service = running[Math.floor(this.#random() * running.length)];
      if (service && this.#events) {
        const line = serviceLogLine(service.name, this.#random);
        this.#events.log({
          message: line.message,
          timestamp: this.#scheduler.now(),
          isStdErr: line.isStdErr,
          ...(service.id === null ? {} : { serviceId: service.id }),
        });
      }
      this.#armLogs();
    });
  }
}
