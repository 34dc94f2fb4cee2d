import type { AgentProfile } from '@flotilla/shared/device-protocol/agent-profile-rules';
import { openTcpTunnel } from './stream-shell.js';
import type { TerminalSize, TerminalTarget } from '@flotilla/shared/terminal/terminal-protocol';
import { openPtyShell } from './pty-shell.js';
import type { Shell, ShellIo } from './shell.js';
import type { ActionParams, DeviceAction } from '@flotilla/shared/cloudlink/messages';
import type { CheckResult } from '@flotilla/shared/diagnostics/diagnostics';
import { access } from 'node:fs/promises';
import type { HostSettings } from '../config.js';
import { errorText, type Logger } from '../logger.js';
import type { Scheduler, TaskHandle } from '../scheduler.js';
import { type DeviceTarget, type TargetService, updateLockOverridden } from '../target-types.js';
import type { ContainerAction } from '../engine/container-actions.js';
import { type ActionPorts, dispatchAction } from './action-dispatch.js';
import type { CommandRunner } from './command-runner.js';
import { withService } from './command-runner.js';
import {
  type ActionOutcome,
  type AppReport,
  type DeviceInfo,
  type DeviceMetrics,
  type DeviceRuntime,
  failure,
  ok,
  type PowerAction,
  type RuntimeEvents,
  type ServiceStatus,
} from './device-runtime.js';
import { type FileSystem, ServiceEnvironments } from './host-environment.js';
import {
  type HostProbe,
  hostDiagnoseReport,
  runHostChecks,
  systemProbe,
  usesContainerEngine,
} from './health-checks.js';
import type { HostOsUpdater } from './host-os-updater.js';
import { HostMetrics, hostNetwork, hostOsVersion, type NetworkInfo } from './host-metrics.js';

export type HostDeviceOptions = {
  settings: HostSettings;
  runner: CommandRunner;
  scheduler: Scheduler;
  logger: Logger;
  supervisorVersion: string;
  // How often service statuses are re-read when a status command is configured.
  serviceCheckMs?: number;
  // After a successful reboot/shutdown command the OS should stop us; if it has not after
  // this long, the agent comes back online.
  powerGraceMs?: number;
  fileExists?: (path: string) => Promise<boolean>;
  // Where service environment files are read and written (tests pass a fake).
  fileSystem?: FileSystem;
  // What health checks and diagnostics read (tests pass a fake).
  probe?: HostProbe;
  // The line the device's log starts with (a container device says it runs containers).
  startLine?: string;
  // What the agent reports about itself (runtime/agent-profile.ts); tests may leave it out.
  profile?: AgentProfile;
};

// The reboot that follows a host OS update waits this long for the state report to leave.
const osRebootDelayMs = 2000;

// The agent's own lines a diagnostics report ends with.
const recentLogLines = 50;

const exists = async (path: string): Promise<boolean> => {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
};

// Actions an update lock refuses on the host unless forced.
const hostLockedActions: readonly DeviceAction[] = [
  'reboot',
  'shutdown',
  'update',
  'restart-services',
];

const notSupported = (what: string): ActionOutcome =>
  failure(501, `${what} is not supported by this device's agent (no command configured)`);

// The Linux machine the agent runs on. It does not run containers: it reports real metrics
// and addresses, reboots and shuts down through configured commands, and reports the target's
// services only through a configured status command (never assumed to run).
export class HostDevice implements DeviceRuntime {
  readonly #options: HostDeviceOptions;
  readonly #metrics = new HostMetrics();
  readonly #fileExists: (path: string) => Promise<boolean>;
  readonly #probe: HostProbe;
  readonly #recentLog: string[] = [];
  #events: RuntimeEvents | null = null;
  #target: DeviceTarget | null = null;
  #statuses = new Map<string, ServiceStatus>();
  #network: NetworkInfo = { ipAddress: '', macAddress: '' };
  #osVersion: string;
  #check: TaskHandle | null = null;
  readonly #environments: ServiceEnvironments;
  // Environment changes are handled one target after another.
  #environmentWork: Promise<void> = Promise.resolve();
  // Real mode's host OS updates (set once the device's identity is known).
  osUpdater: HostOsUpdater | null = null;
  // The last supervisor (self-)update that failed, reported while no OS update runs.
  #supervisorUpdateFailure: string | null = null;

  constructor(options: HostDeviceOptions) {
    this.#options = options;
    this.#fileExists = options.fileExists ?? exists;
    this.#probe = options.probe ?? systemProbe;
    this.#osVersion = options.settings.osVersion ?? 'Linux';
    this.#environments = new ServiceEnvironments(
      options.settings.serviceEnvironmentDir,
      options.fileSystem,
    );
  }

  async prepare(): Promise<void> {
    this.#network = hostNetwork();
    this.#osVersion = this.#options.settings.osVersion ?? (await hostOsVersion());
  }

  start(events: RuntimeEvents): void {
    this.#events = events;
    this.osUpdater?.connect({
      log: (message) => this.#log(message),
      changed: () => this.#events?.changed(),
      reboot: () => {
        this.#options.scheduler.after(osRebootDelayMs, () => this.#events?.reboot?.());
      },
    });
    this.#log(
      this.#options.startLine ?? 'Flotilla agent starting (host mode: containers are not managed)',
    );
    this.#armServiceCheck(0);
  }

  stop(): void {
    this.#check?.cancel();
    this.#check = null;
    this.#events = null;
  }

  applyTarget(target: DeviceTarget, force = false): void {
    this.#target = target;
    this.applyHostOs(target);
    this.#events?.changed();
    this.#armServiceCheck(0);
    this.#environmentWork = this.#environmentWork.then(() =>
      this.#applyEnvironments(target, force),
    );
  }

  applyHostOs(target: DeviceTarget): void {
    this.osUpdater?.apply(target.hostOs);
  }

  // Resolves once the environment of the last target is written and applied (tests).
  get environmentSettled(): Promise<void> {
    return this.#environmentWork;
  }

  // The services' variables: written to their files, and a service whose variables changed is
  // restarted with the restart command (after the update lock) so that it reads them.
  async #applyEnvironments(target: DeviceTarget, force: boolean): Promise<void> {
    let changes;
    try {
      changes = await this.#environments.apply(target.app?.release?.services ?? []);
    } catch (error) {
      this.#options.logger.error(
        `could not write the service environment files: ${errorText(error)}`,
      );
      return;
    }
    const restart = this.#options.settings.serviceCommands.restart;
    for (const { service, names } of changes) {
      if (!service.running) continue;
      const list = names.join(', ');
      if (!restart) {
        this.#log(
          `The environment of service '${service.name}' changed (${list}); it applies when the service restarts`,
        );
        continue;
      }
      if (await this.#locked(force)) {
        this.#log(
          `Updates are locked: service '${service.name}' gets its new environment (${list}) when it restarts`,
        );
        continue;
      }
      this.#log(`Restarting service '${service.name}' to apply its new environment (${list})`);
      await this.#run(withService(restart, service.name), service.environment);
    }
    if (changes.length > 0) this.#armServiceCheck(0);
  }

  // A supervisor update failed (self-update/self-updater.ts): the next state report says so.
  supervisorUpdateFailed(message: string): void {
    this.#supervisorUpdateFailure = message;
    this.#events?.changed();
  }

  // An OS update's step wins; otherwise a failed supervisor update shows.
  #provisioning(): Pick<DeviceInfo, 'provisioning_state' | 'provisioning_progress'> {
    const os = this.osUpdater?.state;
    if ((os?.provisioning_state ?? null) !== null || this.#supervisorUpdateFailure === null) {
      return os ?? {};
    }
    return { provisioning_state: this.#supervisorUpdateFailure, provisioning_progress: null };
  }

  info(): DeviceInfo {
    const { settings, supervisorVersion } = this.#options;
    return {
      status: 'Idle',
      os_version: this.#osVersion,
      ...(settings.osVariant ? { os_variant: settings.osVariant } : {}),
      supervisor_version: supervisorVersion,
      ip_address: this.#network.ipAddress,
      mac_address: this.#network.macAddress,
      ...(this.#options.profile ? { agent_profile: this.#options.profile } : {}),
      ...this.#provisioning(),
      apps: this.#apps(),
    };
  }

  async metrics(): Promise<DeviceMetrics> {
    const network = hostNetwork();
    if (
      network.ipAddress !== this.#network.ipAddress ||
      network.macAddress !== this.#network.macAddress
    ) {
      this.#network = network;
      this.#events?.changed();
    }
    return this.#metrics.read();
  }

  openShell(target: TerminalTarget, size: TerminalSize, io: ShellIo): Shell | { error: string } {
    const { terminalShell, serviceShell } = this.#options.settings;
    if (target.kind === 'host') return openPtyShell({ argv: terminalShell, size, io });
    if (!serviceShell) return { error: 'No serviceShell is configured on this device' };
    const argv = serviceShell.map((part) => part.replaceAll('{service}', target.service));
    return openPtyShell({ argv, size, io });
  }

  // The public device URL reaches the web server on this machine (port 80 unless configured).
  openTunnel(io: ShellIo): Shell {
    return openTcpTunnel(this.#options.settings.webServerPort, io);
  }

  handleAction(action: DeviceAction, params: ActionParams): Promise<ActionOutcome> {
    return dispatchAction(this.actionPorts(), action, params);
  }

  // What the host does for each action (a container device replaces the services).
  actionPorts(): ActionPorts {
    return {
      lockedActions: hostLockedActions,
      locked: (force) => this.#locked(force),
      log: (message) => this.#log(message),
      blink: async () => {
        this.#log('Identify: blink requested');
        if (this.#options.settings.blinkCommand) {
          await this.#run(this.#options.settings.blinkCommand);
        }
      },
      pollNow: (force) => this.#events?.pollNow(force),
      deviceState: () => this.#deviceState(),
      checks: async (checkParams) => {
        const report = await runHostChecks(this.#probe, {
          sentAt: checkParams.sentAt,
          engineExpected: usesContainerEngine(this.#options.settings.serviceShell),
        });
        const services = this.#serviceCheck();
        return services ? { ...report, checks: [...report.checks, services] } : report;
      },
      diagnose: () => hostDiagnoseReport(this.#probe, this.#recentLog),
      services: (serviceAction, serviceParams) => this.#serviceAction(serviceAction, serviceParams),
    };
  }

  // The fleet app's services through the configured service commands (no engine on the host).
  async #serviceAction(action: ContainerAction, params: ActionParams): Promise<ActionOutcome> {
    const commands = this.#options.settings.serviceCommands;
    switch (action) {
      case 'purge':
        return notSupported('Purging application data');
      case 'restart-services': {
        if (!commands.restart) return notSupported('Restarting services');
        return this.#onServices(this.#services(), commands.restart);
      }
      case 'start-service':
      case 'stop-service':
      case 'restart-service': {
        const command =
          action === 'start-service'
            ? commands.start
            : action === 'stop-service'
              ? commands.stop
              : commands.restart;
        if (!command) return notSupported(`${action}`);
        const service = this.#services().find(
          (candidate) =>
            (params.imageId !== undefined && candidate.imageId === params.imageId) ||
            (params.serviceName !== undefined && candidate.name === params.serviceName),
        );
        if (!service) return failure(404, 'Service not found');
        return this.#onServices([service], command);
      }
    }
  }

  async powerCycle(action: PowerAction): Promise<'back' | 'off'> {
    const { settings, scheduler, logger } = this.#options;
    this.stop();
    const command = action === 'reboot' ? settings.rebootCommand : settings.shutdownCommand;
    const result = await this.#run(command);
    if (result) {
      // The OS is taking the machine down; should it not, come back after a grace period.
      await new Promise<void>((resolve) =>
        scheduler.after(this.#options.powerGraceMs ?? 120_000, resolve),
      );
      logger.warn(
        `still running ${action === 'reboot' ? 'after reboot' : 'after shutdown'} command`,
      );
    }
    return 'back';
  }

  // With a status command: the target's services that should run and do not (as last read).
  #serviceCheck(): CheckResult | undefined {
    if (!this.#options.settings.serviceCommands.status) return undefined;
    const stopped = this.#services().filter(
      (service) => service.running && this.#statuses.get(service.name) !== 'Running',
    );
    return {
      name: 'check_services_running',
      success: stopped.length === 0,
      status:
        stopped.length === 0
          ? 'Every service that should run is running'
          : `Not running: ${stopped.map((service) => `${service.name} (${this.#statuses.get(service.name) ?? 'Unknown'})`).join(', ')}`,
    };
  }

  #services(): TargetService[] {
    return this.#target?.app?.release?.services ?? [];
  }

  #apps(): Record<string, AppReport> {
    const app = this.#target?.app;
    if (!app) return {};
    const release = app.release;
    // Without a status command nothing is claimed: no release counts as running.
    if (!release || !this.#options.settings.serviceCommands.status)
      return { [app.uuid]: { releases: {} } };
    const services = Object.fromEntries(
      release.services.map((service) => [
        service.name,
        {
          image: service.image,
          status: this.#statuses.get(service.name) ?? 'Unknown',
          download_progress: null,
        },
      ]),
    );
    const allRunning = release.services.every(
      (service) => !service.running || this.#statuses.get(service.name) === 'Running',
    );
    const report: AppReport = { releases: { [release.commit]: { services } } };
    if (allRunning) {
      report.release_uuid = release.commit;
      report.releases[release.commit] = { services, update_status: 'done' };
    }
    return { [app.uuid]: report };
  }

  async #onServices(services: TargetService[], command: readonly string[]): Promise<ActionOutcome> {
    for (const service of services) {
      if (!(await this.#run(withService(command, service.name), service.environment))) {
        return failure(500, `command failed for service ${service.name}`);
      }
    }
    this.#armServiceCheck(0);
    return ok();
  }

  #armServiceCheck(delayMs: number): void {
    const status = this.#options.settings.serviceCommands.status;
    if (!status || !this.#events) return;
    this.#check?.cancel();
    this.#check = this.#options.scheduler.after(delayMs, () => {
      this.#check = null;
      void this.#readStatuses(status).then(() =>
        this.#armServiceCheck(this.#options.serviceCheckMs ?? 30_000),
      );
    });
  }

  async #readStatuses(command: readonly string[]): Promise<void> {
    let changed = false;
    for (const service of this.#services()) {
      const result = await this.#options.runner(
        withService(command, service.name),
        service.environment,
      );
      const status: ServiceStatus = result.exitCode === 0 ? 'Running' : 'exited';
      if (this.#statuses.get(service.name) !== status) changed = true;
      this.#statuses.set(service.name, status);
    }
    if (changed) this.#events?.changed();
  }

  async #run(
    command: readonly string[],
    environment?: Readonly<Record<string, string>>,
  ): Promise<boolean> {
    try {
      const result = await this.#options.runner(command, environment);
      if (result.exitCode === 0) return true;
      this.#options.logger.error(
        `${command.join(' ')} exited with ${result.exitCode}: ${result.stderr.trim()}`,
      );
    } catch (error) {
      this.#options.logger.error(`${command.join(' ')} failed: ${errorText(error)}`);
    }
    return false;
  }

  async #locked(force: boolean): Promise<boolean> {
    if (force || updateLockOverridden(this.#target?.config ?? {})) return false;
    for (const path of this.#options.settings.updateLockPaths) {
      if (await this.#fileExists(path)) return true;
    }
    return false;
  }

  #deviceState(): Record<string, unknown> {
    const release = this.#apps()[this.#target?.app?.uuid ?? '']?.release_uuid ?? null;
    return {
      api_port: 48484,
      ip_address: this.#network.ipAddress,
      mac_address: this.#network.macAddress,
      os_version: this.#osVersion,
      supervisor_version: this.#options.supervisorVersion,
      update_pending: false,
      update_downloaded: false,
      update_failed: false,
      commit: release,
      status: 'Idle',
      download_progress: null,
    };
  }

  #log(message: string): void {
    const timestamp = this.#options.scheduler.now();
    this.#recentLog.push(`${new Date(timestamp).toISOString()} ${message}`);
    if (this.#recentLog.length > recentLogLines) this.#recentLog.shift();
    this.#events?.log({ message, timestamp, isSystem: true });
  }
}
