import { between, type Random } from '../clock.js';
import { describeEnvironmentChange } from '../runtime/service-environment.js';
import { serviceLogLine } from '../runtime/service-logs.js';
import type { SimulatedShellState } from '../runtime/simulated-shell.js';
import type { Scheduler, TaskHandle } from '../scheduler.js';
import { changedNames } from '../target-types.js';
import { releaseEnvironmentOf } from './simulated-container.js';
import {
  appUuidLabel,
  configHashLabel,
  type ContainerEngine,
  type ContainerSpec,
  type ExecSession,
  type ManagedContainer,
  type ManagedNetwork,
  type NetworkSpec,
  type RegistryAuth,
  serviceIdLabel,
  serviceNameLabel,
} from './container-engine.js';
import {
  managedOf,
  noSpace,
  powerLost,
  restartsAtBoot,
  type SimulatedContainer,
} from './simulated-container.js';
import { simulatedExecSession } from './simulated-exec.js';
import { handoverDirOf } from './simulated-lock-dirs.js';
import { type OutputFollower, SimulatedOutput } from './simulated-output.js';
import type { UpdateFault } from './update-faults.js';

export type SimulatedEngineTiming = {
  // How long one image download takes, picked per pull.
  downloadMs: readonly [number, number];
  // How long creating, starting or stopping a container takes.
  stepMs: number;
  // The spacing of the services' own lines, picked per line (one service speaks at a time).
  logIntervalMs: readonly [number, number];
};

export type SimulatedEngineOptions = {
  scheduler: Scheduler;
  random: Random;
  timing: SimulatedEngineTiming;
  // What a shell inside a service answers from (the simulated device's state).
  shellState: () => SimulatedShellState;
  // The services' lock directories, where a service updated by hand-over signals it took over.
  lockDirs?: { signal(dir: string): void };
};

type InFlight = { task: TaskHandle; reject: (error: Error) => void };

// A container engine in memory for simulated devices, on the simulator's scheduler: pulls take
// the profile's download time and report progress, containers take a step to be created, to
// start and to stop, running services print lines (one service of the device at a time) and
// answer a simulated shell. The device runs its fleet app through the same convergence as a real
// one (container-app.ts) over it. Like a real engine it refuses what a real one refuses (an
// image not pulled, a name taken, a network or volume missing, a running container removed) and
// keeps an image or a network a container still uses; powering the device off stops every
// container and fails what was in flight; powering it on starts them again by their restart
// policy.
export class SimulatedEngine implements ContainerEngine {
  readonly #options: SimulatedEngineOptions;
  readonly #containers = new Map<string, SimulatedContainer>();
  readonly #images = new Set<string>();
  readonly #volumes = new Set<string>();
  readonly #networks = new Map<string, ManagedNetwork>();
  // The running containers, one of which speaks at each line.
  readonly #running: SimulatedContainer[] = [];
  readonly #inFlight = new Set<InFlight>();
  // The variables each service last started with, to print what changed when it starts again.
  readonly #lastEnvironment = new Map<string, Record<string, string>>();
  #powered = false;
  // While set, downloads and new containers fail as on a full disk.
  diskFull = false;
  // While set, the services of every release after the first one this engine ran misbehave.
  updateFault: UpdateFault | null = null;
  // Told when a container is made with a fault (the device acts out 'offline' itself).
  onFault: ((fault: UpdateFault) => void) | null = null;
  // The image each service first ran with: a later image is an update.
  readonly #firstImages = new Map<string, string>();
  #chatter: TaskHandle | null = null;
  #next = 1;

  constructor(options: SimulatedEngineOptions) {
    this.#options = options;
  }

  // Boot: the containers that ran before (by their restart policy) start again; resolves once
  // they run.
  async powerOn(): Promise<void> {
    if (this.#powered) return;
    this.#powered = true;
    this.#armChatter();
    const restarting = [...this.#containers.values()].filter(restartsAtBoot);
    if (restarting.length === 0) return;
    await this.#wait(this.#options.timing.stepMs);
    for (const container of restarting) this.#run(container);
  }

  // Power off: every container stops where it is, and what was in flight fails.
  powerOff(): void {
    if (!this.#powered) return;
    this.#powered = false;
    this.#chatter?.cancel();
    this.#chatter = null;
    for (const operation of this.#inFlight) {
      operation.task.cancel();
      operation.reject(powerLost());
    }
    this.#inFlight.clear();
    for (const container of this.#containers.values()) {
      if (container.state !== 'running' && container.state !== 'restarting') continue;
      // The exit code of a container the engine did not stop itself.
      this.#halt(container, 255, false);
    }
  }

  // What `docker inspect` shows of each container: its state and what it was made with.
  inspectAll(): { container: ManagedContainer; spec: ContainerSpec }[] {
    return [...this.#containers.values()].map((container) => ({
      container: managedOf(container, this.#options.scheduler.now()),
      spec: container.spec,
    }));
  }

  async ping(): Promise<void> {
    this.#ensurePowered();
  }

  async hasImage(reference: string): Promise<boolean> {
    this.#ensurePowered();
    return this.#images.has(reference);
  }

  async pull(
    reference: string,
    _auth: RegistryAuth,
    onProgress: (percent: number) => void,
  ): Promise<void> {
    this.#ensurePowered();
    if (this.#images.has(reference)) return;
    const { random, timing } = this.#options;
    const durationMs = between(random, ...timing.downloadMs);
    // A progress tick every fifth of the download, between 50 ms and a second apart.
    const tickMs = Math.max(50, Math.min(1000, durationMs / 5));
    const share = (100 * tickMs) / Math.max(1, durationMs);
    let percent = 0;
    while (percent < 100) {
      await this.#wait(tickMs);
      // Layers arrive unevenly; always some progress, so a long download still ends.
      percent = Math.min(100, percent + Math.max(1, Math.round(share * between(random, 0.6, 1.4))));
      onProgress(percent);
      // The first layer that does not fit ends the download.
      if (this.diskFull) throw noSpace('tmp/layer');
    }
    this.#images.add(reference);
  }

  // The engine refuses to remove an image a container uses; like a missing one, it stays as it
  // is (the port's rule).
  async removeImage(reference: string): Promise<void> {
    this.#ensurePowered();
    for (const container of this.#containers.values()) {
      if (container.spec.image === reference) return;
    }
    this.#images.delete(reference);
  }

  async createNetwork(spec: NetworkSpec): Promise<void> {
    this.#ensurePowered();
    if (this.#networks.has(spec.name)) {
      throw new Error(`network with name ${spec.name} already exists`);
    }
    this.#networks.set(spec.name, {
      name: spec.name,
      configHash: spec.labels[configHashLabel] ?? '',
    });
  }

  async listNetworks(): Promise<ManagedNetwork[]> {
    this.#ensurePowered();
    return [...this.#networks.values()].map((network) => ({ ...network }));
  }

  // Like a real engine's, a network a container is connected to stays.
  async removeNetwork(name: string): Promise<void> {
    this.#ensurePowered();
    for (const { spec } of this.#containers.values()) {
      if ((spec.networks ?? []).some((network) => network.name === name)) return;
    }
    this.#networks.delete(name);
  }

  async ensureVolume(name: string): Promise<void> {
    this.#ensurePowered();
    this.#volumes.add(name);
  }

  async removeVolume(name: string): Promise<void> {
    this.#ensurePowered();
    const user = [...this.#containers.values()].find(({ spec }) =>
      (spec.binds ?? []).some((bind) => bind.startsWith(`${name}:`)),
    );
    if (user) throw new Error(`The volume ${name} is in use by container ${user.id}`);
    this.#volumes.delete(name);
  }

  async list(): Promise<ManagedContainer[]> {
    this.#ensurePowered();
    return [...this.#containers.values()].map((container) =>
      managedOf(container, this.#options.scheduler.now()),
    );
  }

  async create(spec: ContainerSpec): Promise<string> {
    this.#ensurePowered();
    if (!this.#images.has(spec.image)) throw new Error(`No such image: ${spec.image}`);
    for (const network of spec.networks ?? []) {
      if (!this.#networks.has(network.name)) throw new Error(`network ${network.name} not found`);
    }
    for (const bind of spec.binds ?? []) {
      const source = bind.split(':')[0] ?? '';
      // Host paths (the update lock's directory) need nothing; named volumes must exist.
      if (!source.startsWith('/') && !this.#volumes.has(source)) {
        throw new Error(`No such volume: ${source}`);
      }
    }
    this.#ensureNameFree(spec.name);
    if (this.diskFull) throw noSpace('overlay2/init');
    await this.#wait(this.#options.timing.stepMs);
    this.#ensureNameFree(spec.name);
    const id = `sim${String(this.#next++).padStart(6, '0')}`;
    const serviceId = Number(spec.labels[serviceIdLabel]);
    const service = spec.labels[serviceNameLabel] ?? spec.name;
    const first = this.#firstImages.get(service);
    if (first === undefined) this.#firstImages.set(service, spec.image);
    const updated = first !== undefined && first !== spec.image;
    if (updated && this.updateFault !== null) this.onFault?.(this.updateFault);
    this.#containers.set(id, {
      id,
      spec,
      service,
      fault: updated && this.updateFault !== null ? this.updateFault : undefined,
      serviceId: spec.labels[serviceIdLabel] && Number.isInteger(serviceId) ? serviceId : null,
      state: 'created',
      exitCode: null,
      startedAt: 0,
      stoppedOnRequest: false,
      output: new SimulatedOutput(),
    });
    return id;
  }

  async start(id: string): Promise<void> {
    const container = this.#container(id);
    if (container.state === 'running') return;
    await this.#wait(this.#options.timing.stepMs);
    this.#run(container);
  }

  // A simulated service stops within a step, well inside any timeout.
  async stop(id: string): Promise<void> {
    const container = this.#container(id);
    if (container.state !== 'running') return;
    await this.#wait(this.#options.timing.stepMs);
    this.#halt(container, 0, true);
  }

  async restart(id: string): Promise<void> {
    const container = this.#container(id);
    if (container.state === 'running') {
      await this.#wait(this.#options.timing.stepMs);
      this.#halt(container, 0, false);
    }
    container.state = 'restarting';
    await this.#wait(this.#options.timing.stepMs);
    this.#run(container);
  }

  async remove(id: string): Promise<void> {
    const container = this.#container(id);
    if (container.state === 'running' || container.state === 'restarting') {
      throw new Error(`You cannot remove a running container ${id}: stop it first`);
    }
    container.output.end();
    this.#containers.delete(id);
  }

  // Whatever is asked to run, the simulated shell answers (its lines fit any terminal size).
  async exec(
    id: string,
    _argv: readonly string[],
    _size: { cols: number; rows: number },
  ): Promise<ExecSession> {
    const container = this.#container(id);
    if (container.state !== 'running') throw new Error(`Container ${id} is not running`);
    return simulatedExecSession(container.service, this.#options.shellState);
  }

  async followLogs(
    id: string,
    sinceSeconds: number,
    onLine: OutputFollower['onLine'],
    onEnd: () => void,
  ): Promise<() => void> {
    const container = this.#container(id);
    return container.output.follow(sinceSeconds, { onLine, onEnd }, container.state === 'running');
  }

  #ensurePowered(): void {
    if (!this.#powered) throw powerLost();
  }

  #ensureNameFree(name: string): void {
    if ([...this.#containers.values()].some((container) => container.spec.name === name)) {
      throw new Error(`The container name ${name} is already in use`);
    }
  }

  #container(id: string): SimulatedContainer {
    this.#ensurePowered();
    const container = this.#containers.get(id);
    if (!container) throw new Error(`No such container: ${id}`);
    return container;
  }

  // Resolves after `ms` on the scheduler, or fails when the power goes first.
  #wait(ms: number): Promise<void> {
    this.#ensurePowered();
    return new Promise((resolve, reject) => {
      const operation: InFlight = {
        reject,
        task: this.#options.scheduler.after(ms, () => {
          this.#inFlight.delete(operation);
          resolve();
        }),
      };
      this.#inFlight.add(operation);
    });
  }

  // The container runs; a service that runs with other variables than last time says so first
  // thing (as the demo's services do), so the logs show the new values took.
  #run(container: SimulatedContainer): void {
    if (container.state !== 'running') this.#running.push(container);
    container.state = 'running';
    container.exitCode = null;
    container.startedAt = this.#options.scheduler.now();
    container.stoppedOnRequest = false;
    const key = `${container.spec.labels[appUuidLabel] ?? ''}/${container.service}`;
    const environment = releaseEnvironmentOf(container.spec.environment);
    const before = this.#lastEnvironment.get(key);
    this.#lastEnvironment.set(key, environment);
    const names = before ? changedNames(before, environment) : [];
    if (names.length > 0) {
      this.#print(
        container,
        `Started with ${describeEnvironmentChange(names, environment)}`,
        false,
      );
    }
    this.#signalHandover(container);
  }

  // A service updated by hand-over takes over a step after it starts (as a real one signals once
  // it is ready): it writes handover-complete into its /tmp/balena.
  #signalHandover(container: SimulatedContainer): void {
    const dir = handoverDirOf(container.spec);
    const lockDirs = this.#options.lockDirs;
    if (dir === undefined || !lockDirs) return;
    const { startedAt } = container;
    this.#options.scheduler.after(this.#options.timing.stepMs, () => {
      if (container.state === 'running' && container.startedAt === startedAt) lockDirs.signal(dir);
    });
  }

  #halt(container: SimulatedContainer, exitCode: number, onRequest: boolean): void {
    const index = this.#running.indexOf(container);
    if (index >= 0) this.#running.splice(index, 1);
    container.state = 'exited';
    container.exitCode = exitCode;
    container.stoppedOnRequest = onRequest;
    container.output.end();
  }

  #print(container: SimulatedContainer, message: string, isStdErr: boolean): void {
    container.output.print(message, isStdErr, this.#options.scheduler.now());
  }

  // One timer per device, whatever its number of services: a running service, picked at random,
  // prints a line of the kind its name suggests (service-logs.ts).
  #armChatter(): void {
    const { random, scheduler, timing } = this.#options;
    this.#chatter = scheduler.after(between(random, ...timing.logIntervalMs), () => {
      this.#chatter = null;
      if (!this.#powered) return;
      const container = this.#running[Math.floor(random() * this.#running.length)];
      if (container) {
        const line = serviceLogLine(container.service, random);
        this.#print(container, line.message, line.isStdErr);
      }
      this.#armChatter();
    });
  }
}
