import type { TerminalSize, TerminalTarget } from '@flotilla/shared/terminal/terminal-protocol';
import type { ActionParams, DeviceAction } from '@flotilla/shared/cloudlink/messages';
import { between, type Random } from '../clock.js';
import { runContainerAction } from '../engine/container-actions.js';
import { ContainerApp } from '../engine/container-app.js';
import { openExecShell } from '../engine/exec-shell.js';
import { SimulatedEngine, type SimulatedEngineTiming } from '../engine/simulated-engine.js';
import { SimulatedLockDirs } from '../engine/simulated-lock-dirs.js';
import type { UpdateFault } from '../engine/update-faults.js';
import type { Scheduler } from '../scheduler.js';
import { dispatchAction } from './action-dispatch.js';
import { changedNames, type DeviceTarget, updateLockOverridden } from '../target-types.js';
import {
  type ActionOutcome,
  type DeviceInfo,
  type DeviceMetrics,
  type DeviceRuntime,
  type PowerAction,
  type RuntimeEvents,
} from './device-runtime.js';
import { describeEnvironmentChange } from './service-environment.js';
import type { Shell, ShellIo } from './shell.js';
import {
  type SimulatedState,
  simulatedChecks,
  simulatedDiagnoseReport,
} from './simulated-checks.js';
import { type MetricsProfile, WanderingMetrics } from './simulated-metrics.js';
import { type SimulatedService, simulatedServices } from './simulated-services.js';
import type { SimulatedShellState } from './simulated-shell.js';
import { supervisorDeviceState } from './simulated-supervisor-state.js';
import { type HostUpdateTiming, SimulatedHostUpdate } from './simulated-host-update.js';
import { openSimulatedHostShell } from './simulated-terminal.js';
import { openSimulatedWeb } from './simulated-web.js';

export type SimulatedProfile = {
  name: string;
  deviceType: string;
  // The CPU architecture its services see (BALENA_DEVICE_ARCH).
  arch: string;
  osVersion: string;
  osVariant: 'prod' | 'dev';
  supervisorVersion: string;
  ipAddress: string;
  macAddress: string;
  metrics: MetricsProfile;
};

export type SimulatedDeviceTiming = SimulatedEngineTiming &
  Partial<HostUpdateTiming> & {
    // How often a blocked update looks at the update lock again (balena: 30 s and growing).
    lockRetryMs: number;
    rebootOfflineMs: readonly [number, number];
  };

export type SimulatedDeviceOptions = {
  profile: SimulatedProfile;
  scheduler: Scheduler;
  random: Random;
  timing: SimulatedDeviceTiming;
  updateLocked?: boolean;
  // The disk is full: downloads and new containers fail, and storage reads full.
  diskFull?: boolean;
  // Share of host OS updates that fail and roll back (0..1, default 0).
  osUpdateFailureChance?: number;
  // What the releases after its first one do to it (see engine/update-faults.ts).
  updateFault?: UpdateFault | null;
  // Called when an update brought the fault (the simulator takes an 'offline' device off the air).
  onUpdateFault?(fault: UpdateFault): void;
  onVersions?(versions: { osVersion: string; supervisorVersion: string }): void;
};

const recentLogLines = 50;

// The power and update actions the update lock guards (the containers' own: container-actions.ts).
const lockedActions: readonly DeviceAction[] = ['reboot', 'shutdown', 'update'];

// Where the lock directories would be on a balenaOS device; nothing is written there.
const simulatedLockDir = '/mnt/data/flotilla/locks';

// A simulated engine changes only when the agent asks it to (or at boot, which the device
// follows itself), so its containers are read again seldom: thousands of devices share a process.
const simulatedRefreshMs = 600_000;

// A device that exists only in memory: it boots, runs its fleet app through the same convergence
// as a real device (container-app.ts) over a simulated engine (downloads with progress, update
// strategies and locks, restarts, purges), logs, wanders in its metrics and power-cycles, all on
// the shared scheduler.
export class SimulatedDevice implements DeviceRuntime {
  readonly profile: SimulatedProfile;
  // An application holds an update lock: reboot, shutdown, update, restarts, stopping a service
  // and purge answer 423 unless forced, and new releases wait.
  updateLocked: boolean;
  // The device's uuid once registered, before the agent starts it (its services see it in
  // BALENA_DEVICE_UUID).
  uuid = '';
  readonly #scheduler: Scheduler;
  readonly #random: Random;
  readonly #timing: SimulatedDeviceTiming;
  readonly #engine: SimulatedEngine;
  readonly #lockDirs = new SimulatedLockDirs();
  readonly #metrics: WanderingMetrics;
  // The host OS and supervisor versions, and their updates.
  readonly #host: SimulatedHostUpdate;
  #app: ContainerApp | null = null;
  #target: DeviceTarget | null = null;
  #events: RuntimeEvents | null = null;
  #config: Readonly<Record<string, string>> = {};
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
    this.#host = new SimulatedHostUpdate({
      scheduler: options.scheduler,
      random: options.random,
      timing: { osUpdateStepMs: options.timing.osUpdateStepMs ?? 4000 },
      osVersion: options.profile.osVersion,
      supervisorVersion: options.profile.supervisorVersion,
      failureChance: options.osUpdateFailureChance ?? 0,
      log: (message) => this.#systemLog(message),
      changed: () => this.#events?.changed(),
      reboot: () => this.#events?.reboot?.(),
      versionsChanged: (versions) => options.onVersions?.(versions),
    });
    this.#engine = new SimulatedEngine({
      scheduler: options.scheduler,
      random: options.random,
      timing: options.timing,
      shellState: () => this.#shellState(),
      lockDirs: this.#lockDirs,
    });
    this.diskFull = options.diskFull ?? false;
    this.updateFault = options.updateFault ?? null;
    this.#engine.onFault = (fault) => options.onUpdateFault?.(fault);
  }

  // The fault the next release brings (null: releases behave).
  set updateFault(fault: UpdateFault | null) {
    this.#engine.updateFault = fault;
  }

  get updateFault(): UpdateFault | null {
    return this.#engine.updateFault;
  }

  // A full disk: the engine refuses downloads and new containers as a real one does (the update
  // fails with the engine's error and is tried again later), and storage reads full in the
  // metrics, the health checks and the shell's df. Freeing it lets the next try through.
  set diskFull(full: boolean) {
    this.#engine.diskFull = full;
    this.#metrics.diskFull = full;
  }

  get diskFull(): boolean {
    return this.#engine.diskFull;
  }

  // The fleet app (tests wait on its `settled`).
  get app(): ContainerApp {
    this.#app ??= this.#newApp();
    return this.#app;
  }

  get engine(): SimulatedEngine {
    return this.#engine;
  }

  // The services as their containers are now, in the target's order.
  get services(): SimulatedService[] {
    return simulatedServices(this.#engine, this.#target?.app?.release?.services ?? []);
  }

  // How many identify requests arrived (the simulated LED has nothing else to show).
  get blinks(): number {
    return this.#blinks;
  }

  start(events: RuntimeEvents): void {
    this.#events = events;
    this.#startedAt = this.#scheduler.now();
    this.#host.boot();
    this.#systemLog('Supervisor starting');
    this.#metrics.bump(30);
    const app = this.app;
    app.start();
    // The engine starts the containers that ran before; the app then reads them at once.
    this.#engine.powerOn().then(
      () => app.kick(),
      () => undefined,
    );
  }

  stop(): void {
    this.#host.stop();
    this.#app?.stop();
    this.#engine.powerOff();
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
    this.#target = target;
    this.app.setTarget(target.app, force);
    this.#host.applyOs(target.hostOs);
  }

  // The supervisor release the device is told to run (the simulator reads it from the API).
  applySupervisorRelease(version: string | null): void {
    this.#host.applySupervisor(version);
  }

  get osVersion(): string {
    return this.#host.osVersion;
  }

  get supervisorVersion(): string {
    return this.#host.supervisorVersion;
  }

  info(): DeviceInfo {
    const { profile } = this;
    return {
      status: this.app.status(),
      os_version: this.#host.osVersion,
      os_variant: profile.osVariant,
      supervisor_version: this.#host.supervisorVersion,
      ...this.#host.state,
      ip_address: profile.ipAddress,
      mac_address: profile.macAddress,
      apps: this.app.report(),
    };
  }

  async metrics(): Promise<DeviceMetrics> {
    const running = this.services.filter((service) => service.status === 'Running');
    return this.#metrics.next(running.length);
  }

  handleAction(action: DeviceAction, params: ActionParams): Promise<ActionOutcome> {
    return dispatchAction(
      {
        lockedActions,
        locked: (force) => this.#locked(force),
        refused: (refused) =>
          this.#systemLog(
            `Updates are locked: ${refused} refused (use force to override the lock)`,
          ),
        log: (message) => this.#systemLog(message),
        blink: () => {
          this.#blinks++;
          this.#systemLog('Identify: blinking the LED for 15 s');
        },
        pollNow: (force) => this.#events?.pollNow(force),
        deviceState: () => this.#deviceState(),
        checks: async () => simulatedChecks(await this.#diagnosticState()),
        diagnose: async () => simulatedDiagnoseReport(await this.#diagnosticState()),
        services: (containerAction, containerParams) =>
          runContainerAction(
            {
              app: this.app,
              engine: this.#engine,
              services: this.#target?.app?.release?.services ?? [],
              locked: async (force) => this.#locked(force),
              log: (message, serviceId) => this.#systemLog(message, serviceId),
            },
            containerAction,
            containerParams,
          ),
      },
      action,
      params,
    );
  }

  async powerCycle(action: PowerAction): Promise<'back' | 'off'> {
    this.stop();
    if (action === 'shutdown') return 'off';
    const offline = between(this.#random, ...this.#timing.rebootOfflineMs);
    await new Promise<void>((resolve) => this.#scheduler.after(offline, resolve));
    return 'back';
  }

  #newApp(): ContainerApp {
    const { profile } = this;
    return new ContainerApp({
      engine: this.#engine,
      device: {
        uuid: this.uuid,
        deviceType: profile.deviceType,
        arch: profile.arch,
        osVersion: profile.osVersion,
        supervisorVersion: profile.supervisorVersion,
      },
      // The simulated registry asks for no credentials; these are the ones a device would send.
      registryAuth: (serveraddress) => ({
        username: `d_${this.uuid}`,
        password: '',
        serveraddress,
      }),
      scheduler: this.#scheduler,
      lockDir: simulatedLockDir,
      serviceDirs: this.#lockDirs,
      log: (message, serviceId) => this.#systemLog(message, serviceId),
      serviceLog: (line) => this.#events?.log(line),
      changed: () => this.#events?.changed(),
      locked: async (force) => this.#locked(force),
      retryMs: this.#timing.lockRetryMs,
      refreshMs: simulatedRefreshMs,
    });
  }

  // What the supervisor's GET /v1/device answers.
  #deviceState(): Record<string, unknown> {
    const { profile } = this;
    return {
      api_port: 48484,
      ip_address: profile.ipAddress,
      mac_address: profile.macAddress,
      os_version: this.#host.osVersion,
      supervisor_version: this.#host.supervisorVersion,
      ...supervisorDeviceState(this.app.status(), this.app.report()),
    };
  }

  #locked(force: boolean): boolean {
    return this.updateLocked && !force && !updateLockOverridden(this.#config);
  }

  openShell(target: TerminalTarget, size: TerminalSize, io: ShellIo): Shell | { error: string } {
    if (target.kind === 'host') return openSimulatedHostShell(() => this.#shellState(), io);
    const running = this.app
      .containersOf(target.service)
      .find((container) => container.state === 'running');
    if (!running) return { error: `Service '${target.service}' is not running` };
    return openExecShell(this.#engine, running.id, size, io);
  }

  // The public device URL shows a small status page of this device.
  openTunnel(io: ShellIo, uuid: string): Shell {
    return openSimulatedWeb(
      () => ({
        name: this.profile.name,
        uuid,
        deviceType: this.profile.deviceType,
        release: this.#release(),
        uptimeMs: this.#scheduler.now() - this.#startedAt,
      }),
      io,
    );
  }

  #release(): string | null {
    const uuid = this.#target?.app?.uuid;
    return (uuid && this.app.report()[uuid]?.release_uuid) || null;
  }

  #shellState(): SimulatedShellState {
    const { profile } = this;
    return {
      hostname: profile.name,
      deviceType: profile.deviceType,
      osVersion: this.#host.osVersion,
      uptimeMs: this.#scheduler.now() - this.#startedAt,
      storageUsedMb: this.#metrics.storageUsedMb,
      storageTotalMb: profile.metrics.storageTotalMb,
      services: this.services,
    };
  }

  async #diagnosticState(): Promise<SimulatedState> {
    const { profile } = this;
    return {
      name: profile.name,
      deviceType: profile.deviceType,
      osVersion: this.#host.osVersion,
      ipAddress: profile.ipAddress,
      macAddress: profile.macAddress,
      uptimeMs: this.#scheduler.now() - this.#startedAt,
      metrics: await this.metrics(),
      services: this.services,
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
}
