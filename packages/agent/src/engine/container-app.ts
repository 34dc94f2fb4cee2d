import { join } from 'node:path';
import { errorText } from '../logger.js';
import type { Scheduler, TaskHandle } from '../scheduler.js';
import type { TargetApp } from '../target-types.js';
import type { UpdateStatus } from '@flotilla/shared/device-protocol/state-report-v3';
import type { AppReport, DeviceStatus, LogLine } from '../runtime/device-runtime.js';
import { AppImages } from './app-images.js';
import { networksDiffer } from './app-networks.js';
import { appReport } from './app-report.js';
import type { ContainerEngine, ManagedContainer, RegistryAuth } from './container-engine.js';
import { ContainerLogs } from './container-logs.js';
import { configHashOf, type DeviceFacts, volumeNameOf } from './container-spec.js';
import {
  type NetworkStepsContext,
  prepareNetworks,
  removeUnusedNetworks,
} from './network-steps.js';
import { hostServiceDirs, type ServiceDirs } from './service-dirs.js';
import { type HandOver, replacementOf, ServiceHandovers } from './service-handovers.js';
import { isDiskFull, retryDelayMs, updateFailureLine } from './update-retry.js';
import { inStartOrder, type Wanted, type WantedService, wantedOf } from './wanted-services.js';

export type ContainerAppOptions = {
  engine: ContainerEngine;
  device: DeviceFacts;
  // The device's registry credentials for an image's registry host.
  registryAuth: (registryHost: string) => RegistryAuth;
  scheduler: Scheduler;
  // The agent's own lines (pulling, starting, killing...).
  log(message: string, serviceId?: number): void;
  // A line a container printed.
  serviceLog(line: LogLine): void;
  changed(): void;
  // Whether an update lock blocks a change right now (false when forced).
  locked(force: boolean): Promise<boolean>;
  // How long a container may take to stop; by default its own stop_grace_period, else the
  // engine's 10 s.
  stopTimeoutSeconds?: number;
  // How often the engine's containers are read again (exits and restarts show within it).
  refreshMs?: number;
  // How often a change blocked by an update lock, or an engine away, is tried again.
  retryMs?: number;
  // Where each service's update lock directory lives on the host (update-locks.ts).
  lockDir: string;
  // The services' lock directories (by default on this host's file system; a simulated device
  // has none).
  serviceDirs?: ServiceDirs;
};

type Target = { app: TargetApp | null; force: boolean };

// The fleet app of a real device on a container engine: pulls the target release's images with
// the device's credentials, replaces the containers of services that changed (by the service's
// update strategy, after the update lock), removes what the target no longer has, and reports
// what the engine says. Work is serialised: one convergence at a time, a newer target waiting for
// the current one to finish. Containers are found again by their labels after a restart, and an
// unchanged one is never touched.
export class ContainerApp {
  readonly #options: ContainerAppOptions;
  #target: Target | null = null;
  #wantedFor: { target: Target | null; wanted: Wanted | null } | null = null;
  #containers: ManagedContainer[] = [];
  #updateStatus: UpdateStatus | null = null;
  // The commit of the release whose services run as the target said, once they do.
  #applied: string | null = null;
  #status: DeviceStatus = 'Idle';
  #engineDown: string | null = null;
  #diskFull: string | null = null;
  // What the convergence is doing, for the disk-full line ("download image '…'").
  #step: string | null = null;
  readonly #images: AppImages;
  readonly #dirs: ServiceDirs;
  readonly #handovers: ServiceHandovers;
  #running: Promise<void> | null = null;
  #again = false;
  #retry: TaskHandle | null = null;
  #refresh: TaskHandle | null = null;
  #stopped = false;
  #blockedLogged = false;
  // Failed updates in a row (backoff), and the last failure logged.
  #failures = 0;
  #lastFailure: string | null = null;

  readonly #logs: ContainerLogs;

  constructor(options: ContainerAppOptions) {
    this.#options = options;
    this.#logs = new ContainerLogs(options.engine, options.serviceLog);
    this.#images = new AppImages({
      engine: options.engine,
      registryAuth: options.registryAuth,
      log: (message) => options.log(message),
      changed: () => options.changed(),
    });
    this.#dirs = options.serviceDirs ?? hostServiceDirs;
    this.#handovers = new ServiceHandovers({
      dirs: this.#dirs,
      lockDir: options.lockDir,
      scheduler: options.scheduler,
      log: (message, serviceId) => options.log(message, serviceId),
      kill: (containers) => this.#kill(containers, false),
    });
  }

  start(): void {
    this.#stopped = false;
    this.#logs.start(this.#options.scheduler.now());
    this.#scheduleRefresh(0);
  }

  stop(): void {
    this.#stopped = true;
    this.#retry?.cancel();
    this.#refresh?.cancel();
    this.#handovers.cancelAll();
    this.#logs.stop();
  }

  setTarget(app: TargetApp | null, force: boolean): void {
    this.#target = { app, force };
    this.#blockedLogged = false;
    this.#failures = 0;
    this.#lastFailure = null;
    this.kick();
  }

  // Resolves once the latest target has been worked on (tests, and actions that wait).
  get settled(): Promise<void> {
    return this.#running ?? Promise.resolve();
  }

  // Why the engine cannot be used, while it cannot.
  get engineProblem(): string | null {
    return this.#engineDown;
  }

  // The engine's disk-full error, while the update waits for space.
  get diskProblem(): string | null {
    return this.#diskFull;
  }

  status(): DeviceStatus {
    return this.#status;
  }

  kick(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        await this.#converge();
      } while (this.#again && !this.#stopped);
    })().finally(() => {
      this.#running = null;
    });
  }

  // Purge: every service stopped and removed, the release's volumes emptied (removed), then the
  // release started again from scratch. Waits for any convergence in progress.
  async purge(): Promise<void> {
    await this.settled;
    const app = this.#target?.app;
    const { engine, log } = this.#options;
    await this.#read();
    log('Purging application data');
    await this.#kill(this.#containers, false);
    for (const name of app?.release?.volumes ?? []) {
      if (app) await engine.removeVolume(volumeNameOf(app, name));
    }
    log('Purged application data');
    this.kick();
    await this.settled;
  }

  containersOf(service: string): ManagedContainer[] {
    return this.#containers.filter((container) => container.service === service);
  }

  get containers(): readonly ManagedContainer[] {
    return this.#containers;
  }

  async #read(): Promise<void> {
    const before = JSON.stringify(this.#containers);
    this.#containers = await this.#options.engine.list();
    this.#images.noteContainers(this.#containers);
    if (this.#engineDown !== null) {
      this.#options.log('The container engine answers again');
      this.#engineDown = null;
      this.#options.changed();
    }
    this.#logs.follow(this.#containers);
    if (JSON.stringify(this.#containers) !== before) this.#options.changed();
  }

  // Made once per target: every report reads it, and hashing the specs is not free (a simulator
  // runs hundreds of devices in one process).
  #wanted(): Wanted | null {
    const target = this.#target;
    if (this.#wantedFor?.target !== target) {
      const wanted = wantedOf(target?.app, this.#options.device, this.#options.lockDir);
      this.#wantedFor = { target, wanted };
    }
    return this.#wantedFor.wanted;
  }

  async #converge(): Promise<void> {
    if (this.#stopped || this.#target === null) return;
    const { engine, log } = this.#options;
    const force = this.#target.force;
    this.#step = null;
    try {
      await this.#read();
      const wanted = this.#wanted();
      // A release this device must not run as it is: the running one stays.
      if (wanted && wanted.refusals.length > 0) throw new Error(wanted.refusals.join('; '));
      const specs = wanted?.specs ?? [];
      const changed = specs.filter(({ spec, service }) => {
        const current = this.containersOf(service);
        return current.length !== 1 || current[0]?.configHash !== configHashOf(spec);
      });
      const names = new Set(specs.map(({ service }) => service));
      const obsolete = this.#containers.filter((container) => !names.has(container.service));
      const existingNetworks = await engine.listNetworks();
      if (
        changed.length === 0 &&
        obsolete.length === 0 &&
        !networksDiffer(wanted?.networks ?? [], existingNetworks)
      ) {
        await this.#startStopped(specs);
        this.#converged(wanted);
        return;
      }
      // Downloads need no lock: the services keep running meanwhile.
      const downloadFirst = changed.filter(
        ({ strategy }) => strategy === 'download-then-kill' || strategy === 'hand-over',
      );
      if (downloadFirst.length > 0) {
        this.#setStatus('Downloading', 'downloading');
        for (const { spec } of downloadFirst) await this.#pull(spec.image);
        this.#images.downloadsEnded();
        this.#setStatus('Idle', 'downloaded');
      }
      if (await this.#options.locked(force)) {
        if (!this.#blockedLogged) log('Updates are locked: the update waits for the lock');
        this.#blockedLogged = true;
        this.#retryLater();
        return;
      }
      // Kill first where the service asks for it (less disk, a moment without the service).
      const killFirst = changed.filter(
        ({ strategy }) => strategy === 'kill-then-download' || strategy === 'delete-then-download',
      );
      for (const { service, strategy } of killFirst) {
        await this.#kill(this.containersOf(service), strategy === 'delete-then-download');
      }
      if (killFirst.length > 0) {
        this.#setStatus('Downloading', 'downloading');
        for (const { spec } of killFirst) await this.#pull(spec.image);
        this.#images.downloadsEnded();
      }
      this.#setStatus('Installing', 'applying changes');
      for (const name of wanted?.release.volumes ?? []) {
        if (this.#target.app) await engine.ensureVolume(volumeNameOf(this.#target.app, name));
      }
      await prepareNetworks(this.#networkSteps(), wanted, changed, existingNetworks);
      const handOvers: HandOver[] = [];
      for (const service of inStartOrder(changed)) {
        const handOver = await this.#install(service);
        if (handOver) handOvers.push(handOver);
      }
      // Every hand-over ends before the convergence goes on, even when one of them fails.
      const handedOver = await Promise.allSettled(
        handOvers.map((one) => this.#handovers.handOver(one)),
      );
      for (const outcome of handedOver) if (outcome.status === 'rejected') throw outcome.reason;
      await this.#kill(
        this.#containers.filter((container) => !names.has(container.service)),
        false,
      );
      await removeUnusedNetworks(this.#options, wanted);
      await this.#read();
      this.#converged(wanted);
      await this.#images.removeUnused(wanted, this.#containers);
    } catch (error) {
      this.#images.downloadsEnded();
      // Stopped meanwhile (the device powering off): the next start works on the target afresh.
      if (this.#stopped) {
        this.#setStatus('Idle', this.#updateStatus === 'done' ? 'done' : 'aborted');
        return;
      }
      // An engine that answers refused one step (an image it cannot pull...): the update failed,
      // the engine did not.
      if (
        await engine.ping().then(
          () => true,
          () => false,
        )
      )
        await this.#updateFailed(error);
      else this.#engineFailed(error);
    }
  }

  #networkSteps(): NetworkStepsContext {
    return {
      engine: this.#options.engine,
      log: (message) => this.#options.log(message),
      containers: () => this.#containers,
      kill: (containers) => this.#kill(containers, false),
    };
  }

  // Creates and starts a changed service's container. Under hand-over the old one is left
  // running for ServiceHandovers; otherwise it is killed first.
  async #install(wanted: WantedService): Promise<HandOver | null> {
    const current = this.containersOf(wanted.service);
    const { fresh, old, handOver } = replacementOf(wanted, current);
    const lockDir = join(this.#options.lockDir, wanted.service);
    await this.#dirs.make(lockDir);
    if (!handOver) {
      await this.#kill(current, false);
      await this.#create(wanted);
      return null;
    }
    if (!fresh) {
      await this.#dirs.clearHandover(lockDir);
      await this.#create(wanted);
    }
    return { ...wanted, old };
  }

  async #create({
    spec,
    service,
    serviceId,
    running,
    ignoredFeatures,
  }: WantedService): Promise<void> {
    const { engine, log } = this.#options;
    log(`Installing service '${service}'`, serviceId ?? undefined);
    for (const feature of ignoredFeatures) {
      log(`Service '${service}': io.balena.features.${feature} is ignored`, serviceId ?? undefined);
    }
    this.#step = `install service '${service}'`;
    const id = await engine.create(spec);
    this.#step = null;
    if (running) {
      log(`Starting service '${service}'`, serviceId ?? undefined);
      await engine.start(id);
    }
    await this.#read();
  }

  async #updateFailed(error: unknown): Promise<void> {
    const problem = errorText(error);
    const diskFull = isDiskFull(problem);
    const line = updateFailureLine(problem, this.#step);
    if (line !== this.#lastFailure) this.#options.log(line);
    this.#lastFailure = line;
    this.#failures += 1;
    this.#diskFull = diskFull ? problem : null;
    this.#setStatus('Idle', 'aborted');
    this.#retryLater();
    // Room for the next try: the images of releases gone by.
    if (diskFull) {
      await this.#images.removeUnused(this.#wanted(), this.#containers).catch(() => undefined);
    }
  }

  // Services the target wants running that have stopped and whose restart policy did not bring
  // them back stay as they are: the engine's restart policy is the one rule for that.
  async #startStopped(specs: readonly WantedService[]): Promise<void> {
    for (const { service, running } of specs) {
      for (const container of this.containersOf(service)) {
        if (running && container.state === 'created')
          await this.#options.engine.start(container.id);
      }
    }
  }

  async #pull(reference: string): Promise<void> {
    this.#step = `download image '${reference}'`;
    await this.#images.pull(reference);
    this.#step = null;
  }

  async #kill(containers: readonly ManagedContainer[], removeImages: boolean): Promise<void> {
    const { engine, log } = this.#options;
    for (const container of containers) {
      log(`Killing service '${container.service}'`, container.serviceId ?? undefined);
      this.#logs.forget(container.id);
      await engine.stop(container.id, this.#options.stopTimeoutSeconds);
      await engine.remove(container.id);
      log(`Killed service '${container.service}'`, container.serviceId ?? undefined);
      if (removeImages) await this.#images.remove(container.image);
    }
    if (containers.length > 0) await this.#read();
  }

  #engineFailed(error: unknown): void {
    const problem = errorText(error);
    if (this.#engineDown === null) {
      this.#options.log(`The container engine failed: ${problem}; trying again`);
    }
    this.#engineDown = problem;
    this.#setStatus('Idle', this.#updateStatus === 'done' ? 'done' : 'aborted');
    this.#retryLater();
  }

  #retryLater(): void {
    this.#retry?.cancel();
    const delay = retryDelayMs(this.#options.retryMs ?? 30_000, this.#failures);
    this.#retry = this.#options.scheduler.after(delay, () => {
      this.#retry = null;
      this.kick();
    });
  }

  #scheduleRefresh(delayMs: number): void {
    this.#refresh?.cancel();
    this.#refresh = this.#options.scheduler.after(delayMs, () => {
      this.#refresh = null;
      if (this.#stopped) return;
      const done = this.#running
        ? Promise.resolve()
        : this.#read().catch((error: unknown) => this.#engineFailed(error));
      void done.finally(() => {
        if (!this.#stopped) this.#scheduleRefresh(this.#options.refreshMs ?? 5_000);
      });
    });
  }

  // Everything the target asks for runs: its release is the device's now.
  #converged(wanted: Wanted | null): void {
    this.#applied = wanted?.release.commit ?? null;
    this.#failures = 0;
    this.#lastFailure = null;
    this.#diskFull = null;
    this.#setStatus('Idle', wanted ? 'done' : null);
  }

  #setStatus(status: DeviceStatus, update: UpdateStatus | null): void {
    if (status === this.#status && update === this.#updateStatus) return;
    this.#status = status;
    this.#updateStatus = update;
    this.#options.changed();
  }

  report(): Record<string, AppReport> {
    const app = this.#target?.app;
    if (!app) return {};
    return appReport({
      appUuid: app.uuid,
      wanted: this.#wanted(),
      applied: this.#applied,
      containers: this.#containers,
      downloads: this.#images.downloads,
      status: this.#status,
      updateStatus: this.#updateStatus,
    });
  }
}
