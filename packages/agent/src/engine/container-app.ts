import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { errorText } from '../logger.js';
import type { Scheduler, TaskHandle } from '../scheduler.js';
import type { TargetApp } from '../target-types.js';
import type { AppReport, DeviceStatus, LogLine, UpdateStatus } from '../runtime/device-runtime.js';
import { appReport } from './app-report.js';
import type { ContainerEngine, ManagedContainer, RegistryAuth } from './container-engine.js';
import { ContainerLogs } from './container-logs.js';
import { configHashOf, type DeviceFacts, volumeNameOf } from './container-spec.js';
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
  stopTimeoutSeconds?: number;
  // How often the engine's containers are read again (exits and restarts show within it).
  refreshMs?: number;
  // How often a change blocked by an update lock, or an engine away, is tried again.
  retryMs?: number;
  // Where each service's update lock directory lives on the host (update-locks.ts).
  lockDir: string;
  // Makes a service's lock directory before its container mounts it (by default on this host's
  // file system; a simulated device has none).
  makeLockDir?: (path: string) => Promise<void>;
};

const makeDirectory = async (path: string): Promise<void> => {
  await mkdir(path, { recursive: true });
};

type Target = { app: TargetApp | null; force: boolean };

const registryHostOf = (reference: string): string => reference.split('/')[0] ?? '';

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
  #downloads = new Map<string, number>();
  #updateStatus: UpdateStatus | null = null;
  // The commit of the release whose services run as the target said, once they do.
  #applied: string | null = null;
  #status: DeviceStatus = 'Idle';
  #engineDown: string | null = null;
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
    try {
      await this.#read();
      const wanted = this.#wanted();
      const specs = wanted?.specs ?? [];
      const changed = specs.filter(({ spec, service }) => {
        const current = this.containersOf(service);
        return current.length !== 1 || current[0]?.configHash !== configHashOf(spec);
      });
      const names = new Set(specs.map(({ service }) => service));
      const obsolete = this.#containers.filter((container) => !names.has(container.service));
      if (changed.length === 0 && obsolete.length === 0) {
        await this.#startStopped(specs);
        this.#converged(wanted);
        return;
      }
      // Downloads need no lock: the services keep running meanwhile.
      const downloadFirst = changed.filter(({ strategy }) => strategy === 'download-then-kill');
      if (downloadFirst.length > 0) {
        this.#setStatus('Downloading', 'downloading');
        for (const { spec } of downloadFirst) await this.#pull(spec.image);
        this.#downloads.clear();
        this.#setStatus('Idle', 'downloaded');
      }
      if (await this.#options.locked(force)) {
        if (!this.#blockedLogged) log('Updates are locked: the update waits for the lock');
        this.#blockedLogged = true;
        this.#retryLater();
        return;
      }
      // Kill first where the service asks for it (less disk, a moment without the service).
      const killFirst = changed.filter(({ strategy }) => strategy !== 'download-then-kill');
      for (const { service, strategy } of killFirst) {
        await this.#kill(this.containersOf(service), strategy === 'delete-then-download');
      }
      if (killFirst.length > 0) {
        this.#setStatus('Downloading', 'downloading');
        for (const { spec } of killFirst) await this.#pull(spec.image);
        this.#downloads.clear();
      }
      this.#setStatus('Installing', 'applying changes');
      for (const name of wanted?.release.volumes ?? []) {
        if (this.#target.app) await engine.ensureVolume(volumeNameOf(this.#target.app, name));
      }
      for (const { spec, service, serviceId, running } of inStartOrder(changed)) {
        await this.#kill(this.containersOf(service), false);
        log(`Installing service '${service}'`, serviceId ?? undefined);
        await (this.#options.makeLockDir ?? makeDirectory)(join(this.#options.lockDir, service));
        const id = await engine.create(spec);
        if (running) {
          log(`Starting service '${service}'`, serviceId ?? undefined);
          await engine.start(id);
        }
        await this.#read();
      }
      if (obsolete.length > 0) await this.#kill(obsolete, true);
      await this.#read();
      this.#converged(wanted);
    } catch (error) {
      this.#downloads.clear();
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
        this.#updateFailed(error);
      else this.#engineFailed(error);
    }
  }

  #updateFailed(error: unknown): void {
    const problem = errorText(error);
    if (problem !== this.#lastFailure) this.#options.log(`Update failed: ${problem}; trying again`);
    this.#lastFailure = problem;
    this.#failures += 1;
    this.#setStatus('Idle', 'aborted');
    this.#retryLater();
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
    const { engine, log } = this.#options;
    if (await engine.hasImage(reference)) return;
    log(`Downloading image '${reference}'`);
    this.#downloads.set(reference, 0);
    this.#options.changed();
    let reported = 0;
    await engine.pull(
      reference,
      this.#options.registryAuth(registryHostOf(reference)),
      (percent) => {
        this.#downloads.set(reference, percent);
        // A report every tenth of the way is enough for a progress bar.
        if (percent - reported >= 10) {
          reported = percent;
          this.#options.changed();
        }
      },
    );
    log(`Downloaded image '${reference}'`);
  }

  async #kill(containers: readonly ManagedContainer[], removeImages: boolean): Promise<void> {
    const { engine, log } = this.#options;
    for (const container of containers) {
      log(`Killing service '${container.service}'`, container.serviceId ?? undefined);
      this.#logs.forget(container.id);
      await engine.stop(container.id, this.#options.stopTimeoutSeconds ?? 10);
      await engine.remove(container.id);
      log(`Killed service '${container.service}'`, container.serviceId ?? undefined);
      if (removeImages) await engine.removeImage(container.image);
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

  // Again after retryMs, doubling with each failed update up to ten minutes (a broken image is
  // not pulled in a loop).
  #retryLater(): void {
    this.#retry?.cancel();
    const base = this.#options.retryMs ?? 30_000;
    const delay = Math.min(base * 2 ** Math.min(this.#failures, 10), Math.max(base, 600_000));
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
      downloads: this.#downloads,
      status: this.#status,
      updateStatus: this.#updateStatus,
    });
  }
}
