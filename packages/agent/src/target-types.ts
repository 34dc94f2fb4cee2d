import type {
  AppTargetV3,
  ServiceTargetV3,
} from '@flotilla/shared/device-protocol/target-state-v3';
import { readDeviceTargetV3 } from '@flotilla/shared/device-protocol/target-state-v3-read';
import { parseComposition, parseNetworks } from './composition-fields.js';

// The parts of the v3 target state (GET /device/v3/:uuid/state) the agent acts on, reduced from
// the device's entry as the protocol's reader reads it.

export type TargetService = {
  name: string;
  id: number | null;
  imageId: number | null;
  image: string;
  // A service the release declares but does not want started (target `running: false`).
  running: boolean;
  // The variables the service runs with: the image's, the fleet's, the service's, the
  // device's and the device's for this service, already merged by the server.
  environment: Readonly<Record<string, string>>;
  // The release's labels of the service (io.balena.features.*, io.balena.update.strategy...).
  labels: Readonly<Record<string, string>>;
  // What the release's compose file says of how the container runs.
  composition: ServiceComposition;
};

// The part of a compose service a container engine runs it with (composition-fields.ts reads
// it from the target state).
export type ServiceComposition = {
  command?: readonly string[];
  entrypoint?: readonly string[];
  workingDir?: string;
  user?: string;
  // `always` (the default), `unless-stopped`, `on-failure[:max retries]` or `no`.
  restart?: string;
  privileged?: boolean;
  networkMode?: string;
  // The release's networks the service joins; without them (and without a network mode) it
  // joins the app's default network.
  networks?: readonly ServiceNetwork[];
  capAdd?: readonly string[];
  capDrop?: readonly string[];
  // `[host ip:]host port:container port[/protocol]` as compose writes them.
  ports?: readonly string[];
  // `<volume name>:<path>[:ro]`; a path of the host is the business of feature labels.
  volumes?: readonly string[];
  // `/dev/host[:/dev/container[:permissions]]`.
  devices?: readonly string[];
  healthcheck?: HealthCheck;
  // Paths mounted as tmpfs, each `path[:options]`.
  tmpfs?: readonly string[];
  sysctls?: Readonly<Record<string, string>>;
  // `host:address` lines for the container's /etc/hosts.
  extraHosts?: readonly string[];
  stopSignal?: string;
  stopGracePeriodMs?: number;
  shmSizeBytes?: number;
  readOnly?: boolean;
  init?: boolean;
  hostname?: string;
  tty?: boolean;
  // Resource limits: per-process limits, memory (bytes), a share of the CPUs and a relative
  // weight.
  ulimits?: readonly Ulimit[];
  memLimitBytes?: number;
  memReservationBytes?: number;
  cpus?: number;
  cpuShares?: number;
  // The container's resolver: name servers, search domains and resolv.conf options.
  dns?: readonly string[];
  dnsSearch?: readonly string[];
  dnsOpt?: readonly string[];
  // `label=…`, `seccomp=…`, `apparmor=…`, `no-new-privileges`.
  securityOpt?: readonly string[];
  // Services started before this one.
  dependsOn?: readonly string[];
};

export type Ulimit = { name: string; soft: number; hard: number };

export type ServiceNetwork = { name: string; aliases?: readonly string[] };

export type HealthCheck = {
  // `['NONE']` turns the image's check off; otherwise `['CMD', …]` or `['CMD-SHELL', line]`.
  test: readonly string[];
  intervalMs?: number;
  timeoutMs?: number;
  startPeriodMs?: number;
  retries?: number;
};

// A network the release's compose file declares.
export type ReleaseNetwork = {
  name: string;
  driver?: string;
  driverOpts?: Readonly<Record<string, string>>;
  internal?: boolean;
  enableIpv6?: boolean;
  labels?: Readonly<Record<string, string>>;
  subnets: readonly { subnet?: string; gateway?: string; ipRange?: string }[];
};

export type TargetRelease = {
  commit: string;
  id: number | null;
  services: TargetService[];
  // The named volumes the release's compose file declares.
  volumes: readonly string[];
  // The networks it declares (none when absent).
  networks?: readonly ReleaseNetwork[];
};

// The fleet's user app (a host OS app is read apart, as hostOs).
export type TargetApp = {
  uuid: string;
  id: number | null;
  name: string;
  release: TargetRelease | null;
};

// The host OS release the device is told to run (balenaOS's own update acts on it).
// `updaterImage`: the image that moves the host to it (the release's service hostapp).
export type HostOsTarget = {
  releaseId: number | null;
  version: string;
  updaterImage?: string | null;
};

export type DeviceTarget = {
  name: string | null;
  // False once the device is deactivated: the server adds `is_active: false` to its entry.
  active: boolean;
  config: Readonly<Record<string, string>>;
  app: TargetApp | null;
  // Absent or null: the device is told to run no host OS release.
  hostOs?: HostOsTarget | null;
};

const hostOsOf = (app: AppTargetV3): HostOsTarget | null => {
  const release = Object.values(app.releases)[0];
  if (release?.raw_version === undefined) return null;
  const updater = release.services.hostapp ?? Object.values(release.services)[0];
  return {
    releaseId: release.id,
    version: release.raw_version,
    updaterImage: updater?.image ?? null,
  };
};

const readService = (name: string, service: ServiceTargetV3): TargetService => ({
  name,
  id: service.id,
  imageId: service.image_id,
  image: service.image,
  running: service.running !== false,
  environment: service.environment,
  labels: service.labels,
  composition: parseComposition(service.composition),
});

// The agent runs the first release the app names.
const readApp = (uuid: string, app: AppTargetV3): TargetApp => {
  const first = Object.entries(app.releases)[0];
  let release: TargetRelease | null = null;
  if (first) {
    const [commit, body] = first;
    release = {
      commit,
      id: body.id,
      services: Object.entries(body.services).map(([name, service]) => readService(name, service)),
      volumes: Object.keys(body.volumes),
      networks: parseNetworks(body.networks),
    };
  }
  return { uuid, id: app.id, name: app.name, release };
};

// The device's entry read with the protocol's reader, reduced to what the agent acts on.
export const parseTargetState = (body: unknown, uuid: string): DeviceTarget | null => {
  const device = readDeviceTargetV3(body, uuid);
  if (!device) return null;
  let app: TargetApp | null = null;
  let hostOs: HostOsTarget | null = null;
  for (const [appUuid, entry] of Object.entries(device.apps)) {
    if (entry.is_host) {
      hostOs ??= hostOsOf(entry);
      continue;
    }
    if (entry.class !== undefined && entry.class !== 'fleet') continue;
    app ??= readApp(appUuid, entry);
  }
  return {
    name: device.name,
    active: device.is_active !== false,
    config: device.config,
    app,
    hostOs,
  };
};

// The names whose value differs between two environments (added, changed or removed), sorted.
export const changedNames = (
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
): string[] =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((name) => before[name] !== after[name])
    .sort();

export const updateLockOverridden = (config: Readonly<Record<string, string>>): boolean =>
  (config.BALENA_SUPERVISOR_OVERRIDE_LOCK ?? config.RESIN_SUPERVISOR_OVERRIDE_LOCK) === '1';
