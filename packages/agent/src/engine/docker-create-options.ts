import type Docker from 'dockerode';
import type { ContainerSpec, NetworkSpec } from './container-engine.js';

// A container spec and a network spec as Docker's API takes them (docker-engine.ts sends them).

type PortBinding = { HostIp?: string; HostPort: string };

// Compose's port lines as the engine takes them: `8080:80`, `127.0.0.1:8080:80/udp`, `80`.
export const portsOf = (
  lines: readonly string[],
): {
  exposed?: Record<string, Record<string, never>>;
  bindings?: Record<string, PortBinding[]>;
} => {
  if (lines.length === 0) return {};
  const exposed: Record<string, Record<string, never>> = {};
  const bindings: Record<string, PortBinding[]> = {};
  for (const line of lines) {
    const [ports = '', protocol = 'tcp'] = line.split('/');
    const parts = ports.split(':');
    const container = parts.pop() ?? '';
    const key = `${container}/${protocol}`;
    exposed[key] = {};
    if (parts.length === 0) continue;
    const hostPort = parts.pop() ?? '';
    const hostIp = parts.join(':');
    bindings[key] = [
      ...(bindings[key] ?? []),
      { ...(hostIp === '' ? {} : { HostIp: hostIp }), HostPort: hostPort },
    ];
  }
  return { exposed, ...(Object.keys(bindings).length > 0 ? { bindings } : {}) };
};

// Compose's `restart` (default `always`, as balena's supervisor has it): `no`, `always`,
// `unless-stopped`, `on-failure` or `on-failure:<max retries>`.
export const restartPolicyOf = (value: string | undefined): Docker.HostRestartPolicy => {
  const [name = 'always', retries] = (value ?? 'always').split(':');
  if (name === 'on-failure' && retries !== undefined && /^\d+$/.test(retries)) {
    return { Name: name, MaximumRetryCount: Number(retries) };
  }
  if (retries === undefined && ['no', 'always', 'unless-stopped', 'on-failure'].includes(name)) {
    return { Name: name };
  }
  throw new Error(`unknown restart policy '${value ?? ''}'`);
};

// `/dev/ttyUSB0`, `/dev/ttyUSB0:/dev/serial` or `/dev/ttyUSB0:/dev/serial:r`.
export const deviceMappingOf = (line: string): Docker.DeviceMapping => {
  const [host = '', container, permissions] = line.split(':');
  return {
    PathOnHost: host,
    PathInContainer: container ?? host,
    CgroupPermissions: permissions ?? 'rwm',
  };
};

// `path[:options]` lines as the engine's tmpfs map.
const tmpfsOf = (lines: readonly string[]): Record<string, string> =>
  Object.fromEntries(
    lines.map((line) => {
      const at = line.indexOf(':');
      return at < 0 ? [line, ''] : [line.slice(0, at), line.slice(at + 1)];
    }),
  );

const nanoseconds = (ms: number | undefined): number | undefined =>
  ms === undefined ? undefined : Math.round(ms * 1e6);

// Fields left undefined are not sent (JSON has no undefined). The create call, and the networks
// joined once the container exists: an engine before API
// 1.44 (balena-engine, Debian's Docker) takes one network at creation.
export const createOptionsOf = (
  spec: ContainerSpec,
): {
  options: Docker.ContainerCreateOptions;
  laterNetworks: NonNullable<ContainerSpec['networks']>;
} => {
  const ports = portsOf(spec.ports ?? []);
  const [first, ...later] = spec.networkMode === undefined ? (spec.networks ?? []) : [];
  const health = spec.healthcheck;
  const options: Docker.ContainerCreateOptions = {
    name: spec.name,
    Image: spec.image,
    Env: Object.entries(spec.environment).map(([name, value]) => `${name}=${value}`),
    Labels: { ...spec.labels },
    Cmd: spec.command ? [...spec.command] : undefined,
    Entrypoint: spec.entrypoint ? [...spec.entrypoint] : undefined,
    WorkingDir: spec.workingDir,
    User: spec.user,
    Hostname: spec.hostname,
    Tty: spec.tty,
    StopSignal: spec.stopSignal,
    StopTimeout:
      spec.stopGracePeriodMs === undefined ? undefined : Math.ceil(spec.stopGracePeriodMs / 1000),
    Healthcheck: health
      ? {
          Test: [...health.test],
          Interval: nanoseconds(health.intervalMs),
          Timeout: nanoseconds(health.timeoutMs),
          StartPeriod: nanoseconds(health.startPeriodMs),
          Retries: health.retries,
        }
      : undefined,
    ExposedPorts: ports.exposed,
    HostConfig: {
      RestartPolicy: restartPolicyOf(spec.restart),
      Privileged: spec.privileged ?? false,
      NetworkMode: spec.networkMode ?? first?.name,
      CapAdd: spec.capAdd ? [...spec.capAdd] : undefined,
      CapDrop: spec.capDrop ? [...spec.capDrop] : undefined,
      Binds: spec.binds ? [...spec.binds] : undefined,
      PortBindings: ports.bindings,
      Devices: spec.devices?.map(deviceMappingOf),
      Tmpfs: spec.tmpfs ? tmpfsOf(spec.tmpfs) : undefined,
      Sysctls: spec.sysctls ? { ...spec.sysctls } : undefined,
      ExtraHosts: spec.extraHosts ? [...spec.extraHosts] : undefined,
      ShmSize: spec.shmSizeBytes,
      ReadonlyRootfs: spec.readOnly,
      Init: spec.init,
      Ulimits: spec.ulimits?.map(({ name, soft, hard }) => ({
        Name: name,
        Soft: soft,
        Hard: hard,
      })),
      Memory: spec.memLimitBytes,
      MemoryReservation: spec.memReservationBytes,
      // The engine takes a share of the CPUs in billionths.
      NanoCpus: spec.cpus === undefined ? undefined : Math.round(spec.cpus * 1e9),
      CpuShares: spec.cpuShares,
      Dns: spec.dns ? [...spec.dns] : undefined,
      DnsSearch: spec.dnsSearch ? [...spec.dnsSearch] : undefined,
      DnsOptions: spec.dnsOpt ? [...spec.dnsOpt] : undefined,
      SecurityOpt: spec.securityOpt ? [...spec.securityOpt] : undefined,
    },
    NetworkingConfig: first
      ? { EndpointsConfig: { [first.name]: { Aliases: [...first.aliases] } } }
      : undefined,
  };
  return { options, laterNetworks: later };
};

export const networkOptionsOf = (spec: NetworkSpec): Docker.NetworkCreateOptions => {
  const subnets = (spec.subnets ?? []).map((subnet) => ({
    Subnet: subnet.subnet,
    Gateway: subnet.gateway,
    IPRange: subnet.ipRange,
  }));
  return {
    Name: spec.name,
    CheckDuplicate: true,
    Driver: spec.driver ?? 'bridge',
    Options: spec.driverOpts ? { ...spec.driverOpts } : undefined,
    Internal: spec.internal,
    EnableIPv6: spec.enableIpv6,
    IPAM: subnets.length > 0 ? { Driver: 'default', Config: subnets } : undefined,
    Labels: { ...spec.labels },
  };
};
