import { parseComposition, parseNetworks } from './composition-fields.js';

// The parts of the v3 target state (GET /device/v3/:uuid/state) the agent acts on, reduced
// from { [uuid]: { name, config, apps: { [appUuid]: { releases: { [commit]: … } } } } }.

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
  // Services started before this one.
  dependsOn?: readonly string[];
};

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

// The fleet's user app; host-OS and supervisor apps are ignored (OS updates are out of scope).
export type TargetApp = {
  uuid: string;
  id: number | null;
  name: string;
  release: TargetRelease | null;
};

export type DeviceTarget = {
  name: string | null;
  // False once the device is deactivated: the server adds `is_active: false` to its entry.
  active: boolean;
  config: Readonly<Record<string, string>>;
  app: TargetApp | null;
};

type Raw = Record<string, unknown>;

const isRecord = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const numberOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);

// Values arrive as strings; a number or boolean is kept as its text, anything else dropped.
const stringMap = (raw: unknown): Record<string, string> => {
  const map: Record<string, string> = {};
  for (const [key, value] of Object.entries(isRecord(raw) ? raw : {})) {
    if (typeof value === 'string') map[key] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') map[key] = String(value);
  }
  return map;
};

const parseServices = (raw: unknown): TargetService[] =>
  Object.entries(isRecord(raw) ? raw : {}).map(([name, service]) => {
    const fields = isRecord(service) ? service : {};
    return {
      name,
      id: numberOrNull(fields.id),
      imageId: numberOrNull(fields.image_id),
      image: typeof fields.image === 'string' ? fields.image : `${name}:latest`,
      running: fields.running !== false,
      environment: stringMap(fields.environment),
      labels: stringMap(fields.labels),
      composition: parseComposition(fields.composition),
    };
  });

const parseApp = (uuid: string, raw: Raw): TargetApp => {
  const releases = isRecord(raw.releases) ? Object.entries(raw.releases) : [];
  const first = releases[0];
  let release: TargetRelease | null = null;
  if (first) {
    const [commit, body] = first;
    const fields = isRecord(body) ? body : {};
    release = {
      commit,
      id: numberOrNull(fields.id),
      services: parseServices(fields.services),
      volumes: Object.keys(isRecord(fields.volumes) ? fields.volumes : {}),
      networks: parseNetworks(fields.networks),
    };
  }
  return {
    uuid,
    id: numberOrNull(raw.id),
    name: typeof raw.name === 'string' ? raw.name : uuid,
    release,
  };
};

// Tolerant on purpose: a field we do not understand never stops the device from updating.
export const parseTargetState = (body: unknown, uuid: string): DeviceTarget | null => {
  if (!isRecord(body)) return null;
  const device = body[uuid];
  if (!isRecord(device)) return null;
  const config = stringMap(device.config);
  let app: TargetApp | null = null;
  if (isRecord(device.apps)) {
    for (const [appUuid, raw] of Object.entries(device.apps)) {
      if (!isRecord(raw) || raw.is_host === true) continue;
      if (raw.class !== undefined && raw.class !== 'fleet') continue;
      app = parseApp(appUuid, raw);
      break;
    }
  }
  return {
    name: typeof device.name === 'string' ? device.name : null,
    active: device.is_active !== false,
    config,
    app,
  };
};

// The fleet or device config variable that overrides the poll interval (balena's name, with
// the legacy prefix), when valid.
export const configuredPollInterval = (config: Readonly<Record<string, string>>): number | null => {
  const value = config.BALENA_SUPERVISOR_POLL_INTERVAL ?? config.RESIN_SUPERVISOR_POLL_INTERVAL;
  if (value === undefined || !/^\d+$/.test(value)) return null;
  return Number(value);
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
