import { PassThrough } from 'node:stream';
import type {
  ContainerEngine,
  ExecSession,
  ContainerSpec,
  ManagedContainer,
  ManagedNetwork,
  NetworkSpec,
  RegistryAuth,
} from '../engine/container-engine.js';
import { configHashLabel, serviceIdLabel, serviceNameLabel } from '../engine/container-engine.js';

type FakeContainer = ManagedContainer & { spec: ContainerSpec };

const noSpace = 'write /var/lib/docker/tmp/layer: no space left on device';

// A container engine in memory for tests of the convergence (container-app.ts): strict, it
// refuses what a real engine refuses (an image not pulled, a name taken, an unknown container or
// network, a full disk), keeps what the real one keeps (an image or a network a container still
// uses), and records every call that changes something, in order, so a test can check what
// happened when.
export class FakeEngine implements ContainerEngine {
  readonly calls: string[] = [];
  readonly images = new Set<string>();
  readonly pulledWith: RegistryAuth[] = [];
  // The timeout of each stop (undefined: the container's own).
  readonly stopTimeouts: (number | undefined)[] = [];
  readonly containers = new Map<string, FakeContainer>();
  readonly volumes = new Set<string>();
  readonly networks = new Map<string, NetworkSpec>();
  // Images the user's own containers (not the agent's) run.
  readonly foreignImagesInUse = new Set<string>();
  // Images whose pull the registry refuses, with the engine's message.
  readonly refusedPulls = new Map<string, string>();
  // While set, every call fails as an engine that is away does.
  down: string | null = null;
  // While set, pulls and creates fail as on a full disk.
  diskFull = false;
  #next = 1;

  #check(call: string): void {
    if (this.down !== null) throw new Error(this.down);
    this.calls.push(call);
  }

  #container(id: string): FakeContainer {
    const container = this.containers.get(id);
    if (!container) throw new Error(`no such container: ${id}`);
    return container;
  }

  async ping(): Promise<void> {
    this.#check('ping');
  }

  async hasImage(reference: string): Promise<boolean> {
    if (this.down !== null) throw new Error(this.down);
    return this.images.has(reference);
  }

  async pull(
    reference: string,
    auth: RegistryAuth,
    onProgress: (percent: number) => void,
  ): Promise<void> {
    this.#check(`pull ${reference}`);
    if (this.diskFull) throw new Error(noSpace);
    const refused = this.refusedPulls.get(reference);
    if (refused !== undefined) throw new Error(refused);
    this.pulledWith.push(auth);
    onProgress(50);
    onProgress(100);
    this.images.add(reference);
  }

  async removeImage(reference: string): Promise<void> {
    this.#check(`remove-image ${reference}`);
    const used =
      this.foreignImagesInUse.has(reference) ||
      [...this.containers.values()].some((container) => container.image === reference);
    if (!used) this.images.delete(reference);
  }

  async createNetwork(spec: NetworkSpec): Promise<void> {
    this.#check(`create-network ${spec.name}`);
    if (this.networks.has(spec.name))
      throw new Error(`network with name ${spec.name} already exists`);
    this.networks.set(spec.name, spec);
  }

  async listNetworks(): Promise<ManagedNetwork[]> {
    if (this.down !== null) throw new Error(this.down);
    return [...this.networks.values()].map((network) => ({
      name: network.name,
      configHash: network.labels[configHashLabel] ?? '',
    }));
  }

  async removeNetwork(name: string): Promise<void> {
    this.#check(`remove-network ${name}`);
    const used = [...this.containers.values()].some((container) =>
      (container.spec.networks ?? []).some((network) => network.name === name),
    );
    if (!used) this.networks.delete(name);
  }

  async ensureVolume(name: string): Promise<void> {
    if (this.down !== null) throw new Error(this.down);
    if (this.volumes.has(name)) return;
    this.calls.push(`create-volume ${name}`);
    this.volumes.add(name);
  }

  async removeVolume(name: string): Promise<void> {
    this.#check(`remove-volume ${name}`);
    const used = [...this.containers.values()].some((container) =>
      (container.spec.binds ?? []).some((bind) => bind.startsWith(`${name}:`)),
    );
    if (used) throw new Error(`volume ${name} is in use`);
    this.volumes.delete(name);
  }

  async list(): Promise<ManagedContainer[]> {
    if (this.down !== null) throw new Error(this.down);
    return [...this.containers.values()].map(({ spec: _spec, ...container }) => ({ ...container }));
  }

  async create(spec: ContainerSpec): Promise<string> {
    this.#check(`create ${spec.labels[serviceNameLabel] ?? ''}`);
    if (this.diskFull) throw new Error(noSpace);
    if (!this.images.has(spec.image)) throw new Error(`no such image: ${spec.image}`);
    for (const network of spec.networks ?? []) {
      if (spec.networkMode !== undefined) throw new Error('network mode and networks conflict');
      if (!this.networks.has(network.name)) throw new Error(`network ${network.name} not found`);
    }
    for (const bind of spec.binds ?? []) {
      const source = bind.split(':')[0] ?? '';
      if (!source.startsWith('/') && !this.volumes.has(source)) {
        throw new Error(`no such volume: ${source}`);
      }
    }
    if ([...this.containers.values()].some((container) => container.spec.name === spec.name)) {
      throw new Error(`the name ${spec.name} is taken`);
    }
    const id = `c${this.#next++}`;
    const serviceId = Number(spec.labels[serviceIdLabel]);
    this.containers.set(id, {
      id,
      service: spec.labels[serviceNameLabel] ?? '',
      serviceId: Number.isInteger(serviceId) ? serviceId : null,
      image: spec.image,
      configHash: spec.labels[configHashLabel] ?? '',
      state: 'created',
      exitCode: null,
      spec,
    });
    return id;
  }

  async start(id: string): Promise<void> {
    const container = this.#container(id);
    this.#check(`start ${container.service}`);
    container.state = 'running';
  }

  async stop(id: string, timeoutSeconds?: number): Promise<void> {
    this.stopTimeouts.push(timeoutSeconds);
    const container = this.#container(id);
    this.#check(`stop ${container.service}`);
    container.state = 'exited';
    container.exitCode = 0;
  }

  async restart(id: string): Promise<void> {
    const container = this.#container(id);
    this.#check(`restart ${container.service}`);
    container.state = 'running';
  }

  async remove(id: string): Promise<void> {
    const container = this.#container(id);
    this.#check(`remove ${container.service}`);
    this.containers.delete(id);
  }

  // A terminal that echoes what is typed, and ends with code 0 when `exit` is typed.
  async exec(id: string, argv: readonly string[]): Promise<ExecSession> {
    const container = this.#container(id);
    this.#check(`exec ${container.service} ${argv.join(' ')}`);
    if (container.state !== 'running') throw new Error(`container ${id} is not running`);
    const stream = new PassThrough();
    let ended = false;
    stream.on('data', (chunk: Buffer) => {
      if (!ended && chunk.toString().includes('exit')) {
        ended = true;
        stream.end();
      }
    });
    return {
      stream,
      resize: async (size) => {
        this.calls.push(`resize ${size.cols}x${size.rows}`);
      },
      exitCode: async () => (ended ? 0 : null),
    };
  }

  // Who follows each container's output: a test prints through it (`print`) and ends it.
  readonly #followers = new Map<
    string,
    { onLine: (line: string, isStdErr: boolean, timestamp: number) => void; onEnd: () => void }
  >();

  async followLogs(
    id: string,
    _sinceSeconds: number,
    onLine: (line: string, isStdErr: boolean, timestamp: number) => void,
    onEnd: () => void,
  ): Promise<() => void> {
    if (this.down !== null) throw new Error(this.down);
    this.#followers.set(id, { onLine, onEnd });
    return () => this.#followers.delete(id);
  }

  // A line the container prints, to whoever follows it; false when nobody does.
  print(id: string, line: string, timestamp: number): boolean {
    const follower = this.#followers.get(id);
    follower?.onLine(line, false, timestamp);
    return follower !== undefined;
  }

  // The container's output stream ends (it stopped or restarted).
  endLogs(id: string): void {
    this.#followers.get(id)?.onEnd();
    this.#followers.delete(id);
  }

  // The spec a service's container was created with (the newest, during a hand-over).
  specOf(service: string): ContainerSpec | undefined {
    return [...this.containers.values()].findLast((container) => container.service === service)
      ?.spec;
  }

  containersOf(service: string): FakeContainer[] {
    return [...this.containers.values()].filter((container) => container.service === service);
  }
}
