import type { ActionParams, DeviceAction } from '@flotilla/shared/cloudlink/messages';
import type { TerminalSize, TerminalTarget } from '@flotilla/shared/terminal/terminal-protocol';
import { access } from 'node:fs/promises';
import { ContainerApp } from '../engine/container-app.js';
import { openExecShell } from '../engine/exec-shell.js';
import type { ContainerEngine, ManagedContainer } from '../engine/container-engine.js';
import type { DeviceFacts } from '../engine/container-spec.js';
import { anyServiceLocked } from '../engine/update-locks.js';
import type { Scheduler } from '../scheduler.js';
import { type DeviceTarget, updateLockOverridden } from '../target-types.js';
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
import type { HostDevice } from './host-device.js';
import type { Shell, ShellIo } from './shell.js';

export type ContainerDeviceOptions = {
  // The machine itself: metrics, addresses, power, the host shell, diagnostics.
  host: HostDevice;
  engine: ContainerEngine;
  device: DeviceFacts;
  // The device key the registry's token service knows it by.
  deviceApiKey: string;
  scheduler: Scheduler;
  // Host paths whose existence holds the update lock (config's updateLockPaths).
  hostLockPaths: readonly string[];
  lockDir: string;
  refreshMs?: number;
  retryMs?: number;
  stopTimeoutSeconds?: number;
};

const exists = async (path: string): Promise<boolean> => {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
};

// A real device whose fleet app runs on a container engine: the release's services are
// containers the agent pulls, creates, replaces and removes (engine/container-app.ts); the rest of
// the device is the host's (runtime/host-device.ts).
export class ContainerDevice implements DeviceRuntime {
  readonly #options: ContainerDeviceOptions;
  readonly #app: ContainerApp;
  #events: RuntimeEvents | null = null;
  #target: DeviceTarget | null = null;

  constructor(options: ContainerDeviceOptions) {
    this.#options = options;
    this.#app = new ContainerApp({
      engine: options.engine,
      device: options.device,
      registryAuth: (serveraddress) => ({
        username: `d_${options.device.uuid}`,
        password: options.deviceApiKey,
        serveraddress,
      }),
      scheduler: options.scheduler,
      lockDir: options.lockDir,
      log: (message, serviceId) =>
        this.#events?.log({
          message,
          timestamp: options.scheduler.now(),
          isSystem: true,
          ...(serviceId === undefined ? {} : { serviceId }),
        }),
      serviceLog: (line) => this.#events?.log(line),
      changed: () => this.#events?.changed(),
      locked: (force) => this.#locked(force),
      ...(options.refreshMs === undefined ? {} : { refreshMs: options.refreshMs }),
      ...(options.retryMs === undefined ? {} : { retryMs: options.retryMs }),
      ...(options.stopTimeoutSeconds === undefined
        ? {}
        : { stopTimeoutSeconds: options.stopTimeoutSeconds }),
    });
  }

  // The convergence in progress, if any (tests).
  get settled(): Promise<void> {
    return this.#app.settled;
  }

  get containers(): readonly ManagedContainer[] {
    return this.#app.containers;
  }

  start(events: RuntimeEvents): void {
    this.#events = events;
    this.#options.host.start(events);
    this.#app.start();
  }

  stop(): void {
    this.#app.stop();
    this.#options.host.stop();
    this.#events = null;
  }

  applyTarget(target: DeviceTarget, force: boolean): void {
    this.#target = target;
    this.#app.setTarget(target.app, force);
  }

  async #locked(force: boolean): Promise<boolean> {
    if (force || updateLockOverridden(this.#target?.config ?? {})) return false;
    for (const path of this.#options.hostLockPaths) {
      if (await exists(path)) return true;
    }
    return anyServiceLocked(this.#options.lockDir);
  }

  #selected(params: ActionParams): ManagedContainer[] {
    const services = this.#target?.app?.release?.services ?? [];
    const name =
      params.serviceName ??
      services.find((service) => params.imageId !== undefined && service.imageId === params.imageId)
        ?.name;
    return name === undefined ? [] : this.#app.containersOf(name);
  }

  async #onContainers(
    containers: readonly ManagedContainer[],
    what: 'start' | 'stop' | 'restart',
  ): Promise<ActionOutcome> {
    const { engine } = this.#options;
    // Without a setting, each container's own stop_grace_period (or the engine's default).
    const timeout = this.#options.stopTimeoutSeconds;
    for (const container of containers) {
      const line = { start: 'Starting', stop: 'Stopping', restart: 'Restarting' }[what];
      this.#events?.log({
        message: `${line} service '${container.service}'`,
        timestamp: this.#options.scheduler.now(),
        isSystem: true,
        ...(container.serviceId === null ? {} : { serviceId: container.serviceId }),
      });
      if (what === 'start') await engine.start(container.id);
      else if (what === 'stop') await engine.stop(container.id, timeout);
      else await engine.restart(container.id, timeout);
    }
    this.#app.kick();
    return ok({ Data: 'OK', Error: null });
  }

  async handleAction(action: DeviceAction, params: ActionParams): Promise<ActionOutcome> {
    const force = params.force === true;
    switch (action) {
      case 'restart-services':
        if (await this.#locked(force)) return lockedOutcome();
        return this.#onContainers(this.#app.containers, 'restart');
      case 'start-service':
      case 'stop-service':
      case 'restart-service': {
        if (action !== 'start-service' && (await this.#locked(force))) return lockedOutcome();
        const containers = this.#selected(params);
        if (containers.length === 0) return failure(404, 'Service not found');
        const what =
          action === 'start-service' ? 'start' : action === 'stop-service' ? 'stop' : 'restart';
        return this.#onContainers(containers, what);
      }
      case 'purge':
        if (await this.#locked(force)) return lockedOutcome();
        await this.#app.purge();
        return ok({ Data: 'OK', Error: null });
      default:
        return this.#options.host.handleAction(action, params);
    }
  }

  info(): DeviceInfo {
    return { ...this.#options.host.info(), status: this.#app.status(), apps: this.#app.report() };
  }

  metrics(): Promise<DeviceMetrics> {
    return this.#options.host.metrics();
  }

  // The host's shell, or one inside the service's running container.
  openShell(target: TerminalTarget, size: TerminalSize, io: ShellIo): Shell | { error: string } {
    if (target.kind === 'host') return this.#options.host.openShell(target, size, io);
    const running = this.#app
      .containersOf(target.service)
      .find((container) => container.state === 'running');
    if (!running) return { error: `Service '${target.service}' is not running` };
    return openExecShell(this.#options.engine, running.id, size, io);
  }

  openTunnel(io: ShellIo): Shell {
    return this.#options.host.openTunnel(io);
  }

  powerCycle(action: PowerAction): Promise<'back' | 'off'> {
    this.#app.stop();
    return this.#options.host.powerCycle(action);
  }
}
