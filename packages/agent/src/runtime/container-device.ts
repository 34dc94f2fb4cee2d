import type { ActionParams, DeviceAction } from '@flotilla/shared/cloudlink/messages';
import type { TerminalSize, TerminalTarget } from '@flotilla/shared/terminal/terminal-protocol';
import { access } from 'node:fs/promises';
import { runContainerAction } from '../engine/container-actions.js';
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
  type PowerAction,
  type RuntimeEvents,
} from './device-runtime.js';
import { type ActionPorts, dispatchAction } from './action-dispatch.js';
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

// The host's update lock files refuse these; the container actions check the services' locks.
const containerLockedActions: readonly DeviceAction[] = ['reboot', 'shutdown', 'update'];

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
      log: (message, serviceId) => this.#systemLog(message, serviceId),
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
    this.#options.host.applyHostOs(target);
    this.#app.setTarget(target.app, force);
  }

  async #locked(force: boolean): Promise<boolean> {
    if (force || updateLockOverridden(this.#target?.config ?? {})) return false;
    for (const path of this.#options.hostLockPaths) {
      if (await exists(path)) return true;
    }
    return anyServiceLocked(this.#options.lockDir);
  }

  // The host's answers, but the fleet app's services are the engine's containers, under their
  // own update locks.
  handleAction(action: DeviceAction, params: ActionParams): Promise<ActionOutcome> {
    const ports: ActionPorts = {
      ...this.#options.host.actionPorts(),
      lockedActions: containerLockedActions,
      services: (containerAction, containerParams) =>
        runContainerAction(
          {
            app: this.#app,
            engine: this.#options.engine,
            services: this.#target?.app?.release?.services ?? [],
            locked: (force) => this.#locked(force),
            log: (message, serviceId) => this.#systemLog(message, serviceId),
            ...(this.#options.stopTimeoutSeconds === undefined
              ? {}
              : { stopTimeoutSeconds: this.#options.stopTimeoutSeconds }),
          },
          containerAction,
          containerParams,
        ),
    };
    return dispatchAction(ports, action, params);
  }

  #systemLog(message: string, serviceId?: number): void {
    this.#events?.log({
      message,
      timestamp: this.#options.scheduler.now(),
      isSystem: true,
      ...(serviceId === undefined ? {} : { serviceId }),
    });
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
