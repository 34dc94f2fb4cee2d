import type { ServiceComposition } from '../target-types.js';

// What the agent needs of a container engine (Docker's API: dockerd, balena-engine, Podman's
// compatible socket). docker-engine.ts speaks to a real one; tests use a strict fake.

// A container the agent made, read back from the engine by its labels.
export type ManagedContainer = {
  id: string;
  service: string;
  serviceId: number | null;
  // The image reference it was created from (`<location>@<digest>`).
  image: string;
  // The hash of everything it was created with (container-spec.ts): equal means unchanged.
  configHash: string;
  state: 'created' | 'running' | 'restarting' | 'paused' | 'exited' | 'dead' | 'removing';
  exitCode: number | null;
  // What the container's health check says, when it has one.
  health?: 'starting' | 'healthy' | 'unhealthy';
};

// What a container is made of: the composition's fields a container takes (volumes become binds,
// networks the engine's, the start order is the convergence's), and the rest the agent adds.
export type ContainerSpec = Omit<ServiceComposition, 'volumes' | 'dependsOn' | 'networks'> & {
  name: string;
  image: string;
  environment: Readonly<Record<string, string>>;
  labels: Readonly<Record<string, string>>;
  // Bind mounts: the agent's own (the update lock's directory), the host paths of the service's
  // feature labels and the release's named volumes (`<volume>:<path>[:ro]`).
  binds?: readonly string[];
  // The engine's networks the container joins (the first at creation, the others right after),
  // each with the names other services reach it by.
  networks?: readonly { name: string; aliases: readonly string[] }[];
};

// A network of the release as the engine creates it (`<app id>_<name>`), labelled as the agent's.
export type NetworkSpec = {
  name: string;
  driver?: string;
  driverOpts?: Readonly<Record<string, string>>;
  internal?: boolean;
  enableIpv6?: boolean;
  subnets?: readonly { subnet?: string; gateway?: string; ipRange?: string }[];
  labels: Readonly<Record<string, string>>;
};

// A network the agent made, read back by its labels.
export type ManagedNetwork = { name: string; configHash: string };

// The credentials an image is pulled with: the device's (`d_<uuid>` and its key), which the
// registry's token service turns into a pull token for the device's images.
export type RegistryAuth = { username: string; password: string; serveraddress: string };

// A command running in a container with a terminal (the web terminal's shell in a service).
export type ExecSession = {
  // The terminal's bytes both ways.
  stream: NodeJS.ReadWriteStream & { destroy(): void };
  resize(size: { cols: number; rows: number }): Promise<void>;
  // The command's exit code once it ended (null when the engine cannot say).
  exitCode(): Promise<number | null>;
};

export type ContainerEngine = {
  ping(): Promise<void>;
  hasImage(reference: string): Promise<boolean>;
  // Resolves once the image is stored; `onProgress` gets 0–100 as layers arrive.
  pull(reference: string, auth: RegistryAuth, onProgress: (percent: number) => void): Promise<void>;
  // Left alone while a container still uses it.
  removeImage(reference: string): Promise<void>;
  // Creates the named volume unless it exists.
  ensureVolume(name: string): Promise<void>;
  removeVolume(name: string): Promise<void>;
  createNetwork(spec: NetworkSpec): Promise<void>;
  // The networks carrying the agent's labels.
  listNetworks(): Promise<ManagedNetwork[]>;
  // Left alone while a container the agent does not manage still uses it.
  removeNetwork(name: string): Promise<void>;
  // The containers carrying the agent's labels.
  list(): Promise<ManagedContainer[]>;
  create(spec: ContainerSpec): Promise<string>;
  start(id: string): Promise<void>;
  // Without a timeout, the container's own (its stop_grace_period) or the engine's default.
  stop(id: string, timeoutSeconds?: number): Promise<void>;
  restart(id: string, timeoutSeconds?: number): Promise<void>;
  remove(id: string): Promise<void>;
  exec(
    id: string,
    argv: readonly string[],
    size: { cols: number; rows: number },
  ): Promise<ExecSession>;
  // Follows a container's output from `sinceSeconds` (epoch) until it stops (`onEnd`: a
  // restarted container is followed again); the returned function stops following.
  followLogs(
    id: string,
    sinceSeconds: number,
    onLine: (line: string, isStdErr: boolean, timestamp: number) => void,
    onEnd: () => void,
  ): Promise<() => void>;
};

// The labels that mark the agent's containers (the supervisor's, so either may recognise them).
export const managedLabel = 'io.balena.supervised';
export const serviceNameLabel = 'io.balena.service-name';
export const serviceIdLabel = 'io.balena.service-id';
export const appUuidLabel = 'io.balena.app-uuid';
export const configHashLabel = 'io.flotilla.config-hash';
