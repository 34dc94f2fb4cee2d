import { between, type Random } from '../clock.js';
import type { Scheduler, TaskHandle } from '../scheduler.js';
import type { TargetApp, TargetService } from '../target-types.js';
import {
  describeServices,
  installSteps,
  serviceLabel,
  type SimulatedService,
  type Step,
  type StepLog,
  startSteps,
  stopSteps,
} from './container-steps.js';
import { describeEnvironmentChange, environmentChanges } from './service-environment.js';
import type {
  AppReport,
  DeviceStatus,
  ReleaseReport,
  ServiceStatus,
  UpdateStatus,
} from './device-runtime.js';

export type SimulatedTiming = {
  // How long one image download takes, picked per service.
  downloadMs: readonly [number, number];
  // The pause between two container state changes (installing → installed → starting …).
  stepMs: number;
  // How often a blocked update looks at the update lock again (balena: 30 s and growing).
  lockRetryMs: number;
};

type Release = { commit: string; services: SimulatedService[] };
type Pending = Release & { phase: 'downloading' | 'downloaded' | 'applying'; force: boolean };

export type SimulatedAppHooks = {
  log(message: string, serviceId?: number): void;
  // A line the service itself prints (its stdout).
  serviceLog(message: string, serviceId?: number): void;
  changed(): void;
  // Whether an update lock blocks a change right now (false when forced).
  locked(force: boolean): boolean;
};

const fromTarget = (service: TargetService, status: ServiceStatus): SimulatedService => ({
  name: service.name,
  id: service.id,
  imageId: service.imageId,
  image: service.image,
  wantsRunning: service.running,
  status,
  progress: status === 'Downloading' ? 0 : null,
  environment: { ...service.environment },
});

// The fleet app of one simulated device: downloads a target release with progress, swaps the
// services over (respecting update locks) and runs container operations one after another.
export class SimulatedApp {
  appUuid: string | null = null;
  current: Release | null = null;
  pending: Pending | null = null;
  updateStatus: UpdateStatus | null = null;
  readonly #scheduler: Scheduler;
  readonly #random: Random;
  readonly #timing: SimulatedTiming;
  readonly #hooks: SimulatedAppHooks;
  readonly #log: StepLog;
  // Container operations run as queued step lists, so two actions never interleave.
  #queue: Step[][] = [];
  #work: TaskHandle | null = null;
  #download: TaskHandle | null = null;
  #lockRetry: TaskHandle | null = null;
  #environmentRetry: TaskHandle | null = null;
  // The latest target, which an update being applied when it arrived is checked against.
  #wanted: { app: TargetApp | null; force: boolean } | null = null;
  // The update whose steps are queued, until its last step has run.
  #applying: Pending | null = null;

  constructor(
    scheduler: Scheduler,
    random: Random,
    timing: SimulatedTiming,
    hooks: SimulatedAppHooks,
  ) {
    this.#scheduler = scheduler;
    this.#random = random;
    this.#timing = timing;
    this.#hooks = hooks;
    this.#log = (message, serviceId) => hooks.log(message, serviceId);
  }

  get services(): SimulatedService[] {
    return this.current?.services ?? [];
  }

  status(): DeviceStatus {
    if (this.pending?.phase === 'downloading') return 'Downloading';
    if (this.pending?.phase === 'applying') return 'Installing';
    return 'Idle';
  }

  // Mean progress over the images still to fetch, or null when nothing downloads.
  downloadProgress(): number | null {
    const downloading = this.pending?.services.filter((service) => service.progress !== null);
    if (!downloading || downloading.length === 0) return null;
    const total = downloading.reduce((sum, service) => sum + (service.progress ?? 0), 0);
    return Math.round(total / downloading.length);
  }

  setTarget(app: TargetApp | null, force: boolean): void {
    // A newer target replaces a change of variables still waiting for the update lock.
    this.#environmentRetry?.cancel();
    this.#environmentRetry = null;
    this.#wanted = { app, force };
    this.appUuid = app?.uuid ?? null;
    const release = app?.release ?? null;
    if (release === null) {
      if (this.current)
        this.#enqueue([
          ...stopSteps(this.current.services, 'Stopped', this.#log),
          () => (this.current = null),
        ]);
      this.#abandonPending();
      return;
    }
    if (this.pending?.commit === release.commit) {
      // Not running yet: the services start with the newest variables.
      for (const service of this.pending.services) {
        const target = release.services.find((candidate) => candidate.name === service.name);
        if (target) service.environment = { ...target.environment };
      }
      if (force && !this.pending.force) {
        this.pending.force = true;
        if (this.pending.phase === 'downloaded') this.#tryApply();
      }
      return;
    }
    if (this.current?.commit === release.commit) {
      this.#abandonPending();
      this.#applyEnvironment(release.services, force);
      return;
    }
    this.#abandonPending();
    const have = new Set(this.current?.services.map((service) => service.image));
    const services = release.services.map((service) =>
      fromTarget(service, have.has(service.image) ? 'Downloaded' : 'Downloading'),
    );
    this.pending = { commit: release.commit, services, phase: 'downloading', force };
    this.updateStatus = 'downloading';
    for (const service of services) {
      if (service.status === 'Downloading') this.#hooks.log(`Downloading image '${service.image}'`);
    }
    this.#hooks.changed();
    this.#tickDownload(services.map(() => between(this.#random, ...this.#timing.downloadMs)));
  }

  // The same release with other variables: the services whose environment changed are
  // recreated with the new one (balena-supervisor does the same), after the update lock.
  #applyEnvironment(targets: readonly TargetService[], force: boolean): void {
    const changes = environmentChanges(this.services, targets);
    if (changes.length === 0) return;
    if (this.#hooks.locked(force)) {
      const seconds = Math.round(this.#timing.lockRetryMs / 1000);
      this.#hooks.log(`Updates are locked, retrying in ${seconds}s`);
      this.#environmentRetry = this.#scheduler.after(this.#timing.lockRetryMs, () => {
        this.#environmentRetry = null;
        this.#applyEnvironment(targets, force);
      });
      return;
    }
    for (const { service, environment, names } of changes) {
      service.environment = environment;
      if (!service.wantsRunning) continue;
      const id = service.id ?? undefined;
      this.#hooks.log(
        `Restarting service '${serviceLabel(service)}' to apply its new environment (${names.join(', ')})`,
        id,
      );
      this.#enqueue([
        ...stopSteps([service], 'Stopped', this.#log),
        ...startSteps([service], this.#log),
        () =>
          this.#hooks.serviceLog(
            `Started with ${describeEnvironmentChange(names, environment)}`,
            id,
          ),
      ]);
    }
    this.#hooks.changed();
  }

  // Power off: timers stop, containers stop with the device.
  halt(): void {
    this.#environmentRetry?.cancel();
    this.#environmentRetry = null;
    this.#work?.cancel();
    this.#work = null;
    this.#queue = [];
    this.#applying = null;
    this.#abandonPending();
    // An update cut short by the power is fetched and applied again after the boot.
    this.pending = null;
    this.updateStatus = this.current ? 'done' : null;
    for (const service of this.services) {
      service.status = service.wantsRunning ? 'Installed' : service.status;
      service.progress = null;
    }
  }

  // Power on: the engine starts the containers of the current release again.
  boot(): void {
    const services = this.services.filter((service) => service.wantsRunning);
    this.#enqueue(startSteps(services, this.#log));
  }

  restartAll(): void {
    const services = this.services.filter((service) => service.wantsRunning);
    this.#enqueue([
      ...stopSteps(services, 'Stopped', this.#log),
      ...startSteps(services, this.#log),
    ]);
  }

  purge(appId: number | null): void {
    const services = this.services.filter((service) => service.wantsRunning);
    this.#enqueue([
      ...stopSteps(services, 'Stopped', this.#log),
      () => this.#hooks.log(`Purging data for app ${appId ?? ''}`.trim()),
      () => this.#hooks.log(`Purged data for app ${appId ?? ''}`.trim()),
      ...startSteps(services, this.#log),
    ]);
  }

  startService(service: SimulatedService): void {
    service.wantsRunning = true;
    this.#enqueue(startSteps([service], this.#log));
  }

  stopService(service: SimulatedService): void {
    this.#enqueue(stopSteps([service], 'exited', this.#log));
  }

  restartService(service: SimulatedService): void {
    service.wantsRunning = true;
    this.#enqueue([
      ...stopSteps([service], 'Stopped', this.#log),
      ...startSteps([service], this.#log),
    ]);
  }

  findService(imageId?: number, name?: string): SimulatedService | undefined {
    return this.services.find(
      (service) =>
        (imageId !== undefined && service.imageId === imageId) ||
        (name !== undefined && service.name === name),
    );
  }

  report(): Record<string, AppReport> {
    if (this.appUuid === null) return {};
    const releases: Record<string, ReleaseReport> = {};
    if (this.current) {
      const report: ReleaseReport = { services: describeServices(this.current.services) };
      if (!this.pending && this.updateStatus) report.update_status = this.updateStatus;
      releases[this.current.commit] = report;
    }
    if (this.pending) {
      releases[this.pending.commit] = {
        update_status: this.updateStatus ?? 'downloading',
        services: describeServices(this.pending.services),
      };
    }
    const app: AppReport = { releases };
    if (this.current) app.release_uuid = this.current.commit;
    return { [this.appUuid]: app };
  }

  #abandonPending(): void {
    this.#download?.cancel();
    this.#download = null;
    this.#lockRetry?.cancel();
    this.#lockRetry = null;
    if (this.pending && this.pending.phase !== 'applying') {
      this.pending = null;
      this.updateStatus = this.current ? 'done' : null;
    }
  }

  // One task advances every image in flight: progress grows by the share of its duration.
  #tickDownload(durations: number[]): void {
    const pending = this.pending;
    if (!pending) return;
    const tickMs = Math.max(50, Math.min(1000, Math.min(...durations, 1000) / 5));
    this.#download = this.#scheduler.after(tickMs, () => {
      this.#download = null;
      if (this.pending !== pending) return;
      pending.services.forEach((service, index) => {
        if (service.status !== 'Downloading') return;
        const step = (100 * tickMs) / (durations[index] ?? 1000);
        service.progress = Math.min(
          100,
          Math.round((service.progress ?? 0) + step * between(this.#random, 0.6, 1.4)),
        );
        if (service.progress >= 100) {
          service.status = 'Downloaded';
          service.progress = null;
          this.#hooks.log(`Downloaded image '${service.image}'`);
        }
      });
      this.#hooks.changed();
      if (pending.services.some((service) => service.status === 'Downloading')) {
        this.#tickDownload(durations);
        return;
      }
      pending.phase = 'downloaded';
      this.updateStatus = 'downloaded';
      this.#tryApply();
    });
  }

  #tryApply(): void {
    const pending = this.pending;
    if (!pending || pending.phase !== 'downloaded') return;
    // One update at a time: a downloaded one waits for the one being applied (whose last step
    // tries again), so that it stops the services that update started.
    if (this.#applying) return;
    this.#lockRetry?.cancel();
    this.#lockRetry = null;
    if (this.#hooks.locked(pending.force)) {
      const seconds = Math.round(this.#timing.lockRetryMs / 1000);
      this.#hooks.log(`Updates are locked, retrying in ${seconds}s`);
      this.#hooks.changed();
      this.#lockRetry = this.#scheduler.after(this.#timing.lockRetryMs, () => {
        this.#lockRetry = null;
        this.#tryApply();
      });
      return;
    }
    pending.phase = 'applying';
    this.#applying = pending;
    this.updateStatus = 'applying changes';
    this.#hooks.changed();
    const old = this.current?.services ?? [];
    const fresh = pending.services.filter((service) => service.wantsRunning);
    this.#enqueue([
      ...stopSteps(old, 'Stopped', this.#log),
      ...installSteps(pending.services, this.#log),
      () => {
        this.current = { commit: pending.commit, services: pending.services };
        // A newer target may already be downloading; it stays pending.
        if (this.pending === pending) this.pending = null;
      },
      ...startSteps(fresh, this.#log),
      () => {
        this.#applying = null;
        if (this.pending === null) this.updateStatus = 'done';
        if (this.pending) this.#tryApply();
        else this.#converge();
      },
    ]);
  }

  // An update being applied cannot be abandoned, so a target that arrived meanwhile wanting
  // another release (the one it replaced, say) is followed once it is in: like a supervisor, the
  // device converges on its latest target without waiting for a newer target state.
  #converge(): void {
    const wanted = this.#wanted;
    if (wanted === null || this.pending !== null) return;
    if ((wanted.app?.release?.commit ?? null) === (this.current?.commit ?? null)) return;
    this.setTarget(wanted.app, wanted.force);
  }

  #enqueue(steps: Step[]): void {
    this.#queue.push(steps);
    if (!this.#work) this.#next();
  }

  // Runs one step now and the next one a step later.
  #next(): void {
    const steps = this.#queue[0];
    if (!steps) return;
    const step = steps.shift();
    if (!step) {
      this.#queue.shift();
      this.#next();
      return;
    }
    step();
    this.#hooks.changed();
    this.#work = this.#scheduler.after(this.#timing.stepMs, () => {
      this.#work = null;
      this.#next();
    });
  }
}
