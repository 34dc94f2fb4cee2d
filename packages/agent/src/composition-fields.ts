import {
  byteSize,
  durationMs,
  flag,
  isRecord,
  keyValues,
  oneOrMore,
  scalarText,
  stringList,
  text,
  words,
} from './compose-values.js';
import type {
  HealthCheck,
  ReleaseNetwork,
  ServiceComposition,
  ServiceNetwork,
  Ulimit,
} from './target-types.js';

// The compose fields of a release as the target state carries them (the service's entry of the
// release's docker-compose.yml, as the server stored it), read into the agent's types. Tolerant,
// as the target state is: a value the agent does not understand is left out, and the device keeps
// updating.

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

const wholeNumber = (value: unknown): number | undefined => {
  const found = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof found === 'number' && Number.isInteger(found) ? found : undefined;
};

// `ulimits: { nproc: 65535, nofile: { soft: 20000, hard: 40000 } }`: one number sets both.
const ulimits = (value: unknown): Ulimit[] | undefined => {
  if (!isRecord(value)) return undefined;
  return Object.entries(value).flatMap(([name, limit]) => {
    const both = wholeNumber(limit);
    if (both !== undefined) return [{ name, soft: both, hard: both }];
    if (!isRecord(limit)) return [];
    const soft = wholeNumber(limit.soft);
    const hard = wholeNumber(limit.hard);
    return soft === undefined || hard === undefined ? [] : [{ name, soft, hard }];
  });
};

// `cpus: 0.5` or `"1.5"`: a share of the CPUs, more than none.
const cpus = (value: unknown): number | undefined => {
  const found = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof found === 'number' && Number.isFinite(found) && found > 0 ? found : undefined;
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
    ulimits: ulimits(fields.ulimits),
    memLimitBytes: byteSize(fields.mem_limit),
    memReservationBytes: byteSize(fields.mem_reservation),
    cpus: cpus(fields.cpus),
    cpuShares: wholeNumber(fields.cpu_shares),
    dns: oneOrMore(fields.dns),
    dnsSearch: oneOrMore(fields.dns_search),
    dnsOpt: stringList(fields.dns_opt),
    securityOpt: stringList(fields.security_opt),
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
