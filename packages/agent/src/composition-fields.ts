import type {
  HealthCheck,
  ReleaseNetwork,
  ServiceComposition,
  ServiceNetwork,
} from './target-types.js';

// The compose fields of a release as the target state carries them (the service's entry of the
// release's docker-compose.yml, as the server stored it), read into the agent's types. Tolerant,
// as the target state is: a value the agent does not understand is left out, and the device keeps
// updating.

type Raw = Record<string, unknown>;

const isRecord = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

const flag = (value: unknown): boolean | undefined =>
  typeof value === 'boolean' ? value : undefined;

const stringList = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;

// A compose command: a list as it is, or a string split into words as compose does (quotes
// group, no shell runs it).
const words = (value: unknown): string[] | undefined => {
  if (Array.isArray(value)) {
    return value.every((item) => typeof item === 'string') ? value : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const found = value.match(/"[^"]*"|'[^']*'|[^\s"']+/g) ?? [];
  return found.map((word) => word.replace(/^(["'])(.*)\1$/, '$2'));
};

// A scalar compose writes either as text or as a number.
const scalarText = (value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : undefined;

// `KEY=value` lines or a map (sysctls, driver options): a map either way.
const keyValues = (value: unknown): Record<string, string> | undefined => {
  if (isRecord(value)) {
    const entries = Object.entries(value).flatMap(([key, item]) => {
      const found = scalarText(item);
      return found === undefined ? [] : [[key, found] as const];
    });
    return Object.fromEntries(entries);
  }
  const lines = stringList(value);
  if (!lines) return undefined;
  return Object.fromEntries(
    lines.flatMap((line) => {
      const at = line.indexOf('=');
      return at <= 0 ? [] : [[line.slice(0, at), line.slice(at + 1)] as const];
    }),
  );
};

// One path or several (tmpfs).
const oneOrMore = (value: unknown): string[] | undefined =>
  typeof value === 'string' ? [value] : stringList(value);

const durationUnits: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

// Compose's durations ("1m30s", "10s", "500ms", "1.5s") in milliseconds; a bare number is seconds.
export const durationMs = (value: unknown): number | undefined => {
  if (typeof value === 'number') return value >= 0 ? value * 1000 : undefined;
  if (typeof value !== 'string' || value === '') return undefined;
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)];
  if (parts.map((part) => part[0]).join('') !== value) return undefined;
  return Math.round(
    parts.reduce(
      (sum, [, amount = '0', unit = 's']) => sum + Number(amount) * (durationUnits[unit] ?? 0),
      0,
    ),
  );
};

const byteUnits: Readonly<Record<string, number>> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

// Compose's byte sizes ("64m", "1gb", "512k", 67108864) in bytes.
export const byteSize = (value: unknown): number | undefined => {
  if (typeof value === 'number') return Number.isInteger(value) && value > 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)b?$/i.exec(value.trim());
  if (!match) return undefined;
  const [, amount = '0', unit = ''] = match;
  return Math.round(Number(amount) * (byteUnits[unit.toLowerCase()] ?? 1));
};

// A health check as compose writes it: `test` as a list (`CMD`, `CMD-SHELL`, `NONE`) or a shell
// line, its timings, or `disable: true` (the image's own check turned off).
const healthCheck = (value: unknown): HealthCheck | undefined => {
  if (!isRecord(value)) return undefined;
  if (value.disable === true) return { test: ['NONE'] };
  const test = typeof value.test === 'string' ? ['CMD-SHELL', value.test] : stringList(value.test);
  if (!test || test.length === 0) return undefined;
  // Fields left undefined weigh nothing in the config hash (config-hash.ts).
  return {
    test,
    intervalMs: durationMs(value.interval),
    timeoutMs: durationMs(value.timeout),
    startPeriodMs: durationMs(value.start_period),
    retries:
      typeof value.retries === 'number' && Number.isInteger(value.retries) && value.retries >= 0
        ? value.retries
        : undefined,
  };
};

// A service's networks: a list of names, or a map of names to their aliases.
const serviceNetworks = (value: unknown): ServiceNetwork[] | undefined => {
  const names = stringList(value);
  if (names) return names.map((name) => ({ name }));
  if (!isRecord(value)) return undefined;
  return Object.entries(value).map(([name, settings]) => {
    const aliases = isRecord(settings) ? stringList(settings.aliases) : undefined;
    return aliases ? { name, aliases } : { name };
  });
};

// `extra_hosts` as `host:ip` lines (compose's form) or a map of host to address.
const extraHosts = (value: unknown): string[] | undefined => {
  if (isRecord(value)) {
    return Object.entries(value).flatMap(([host, address]) =>
      typeof address === 'string' ? [`${host}:${address}`] : [],
    );
  }
  return stringList(value)?.map((line) => line.replace(/^([^:=]+)=/, '$1:'));
};

export const parseComposition = (raw: unknown): ServiceComposition => {
  const fields = isRecord(raw) ? raw : {};
  const composition: ServiceComposition = {
    command: words(fields.command),
    entrypoint: words(fields.entrypoint),
    workingDir: text(fields.working_dir),
    user: text(scalarText(fields.user)),
    restart: text(fields.restart),
    privileged: flag(fields.privileged),
    networkMode: text(fields.network_mode),
    networks: serviceNetworks(fields.networks),
    capAdd: stringList(fields.cap_add),
    capDrop: stringList(fields.cap_drop),
    ports: stringList(fields.ports),
    volumes: stringList(fields.volumes),
    devices: stringList(fields.devices),
    healthcheck: healthCheck(fields.healthcheck),
    tmpfs: oneOrMore(fields.tmpfs),
    sysctls: keyValues(fields.sysctls),
    extraHosts: extraHosts(fields.extra_hosts),
    stopSignal: text(fields.stop_signal),
    stopGracePeriodMs: durationMs(fields.stop_grace_period),
    shmSizeBytes: byteSize(fields.shm_size),
    readOnly: flag(fields.read_only),
    init: flag(fields.init),
    hostname: text(fields.hostname),
    tty: flag(fields.tty),
    dependsOn: Array.isArray(fields.depends_on)
      ? stringList(fields.depends_on)
      : isRecord(fields.depends_on)
        ? Object.keys(fields.depends_on)
        : undefined,
  };
  return Object.fromEntries(Object.entries(composition).filter(([, value]) => value !== undefined));
};

// The networks a release declares (compose's top-level `networks`), with what the engine creates
// them with.
export const parseNetworks = (raw: unknown): ReleaseNetwork[] =>
  Object.entries(isRecord(raw) ? raw : {}).map(([name, body]) => {
    const fields = isRecord(body) ? body : {};
    const ipam =
      isRecord(fields.ipam) && Array.isArray(fields.ipam.config) ? fields.ipam.config : [];
    return {
      name,
      driver: text(fields.driver),
      driverOpts: keyValues(fields.driver_opts),
      internal: flag(fields.internal),
      enableIpv6: flag(fields.enable_ipv6),
      labels: keyValues(fields.labels),
      subnets: ipam.filter(isRecord).map((config) => ({
        subnet: text(config.subnet),
        gateway: text(config.gateway),
        ipRange: text(config.ip_range),
      })),
    };
  });
