import type {
  CheckResult,
  ChecksReport,
  DiagnoseReport,
} from '@flotilla/shared/diagnostics/diagnostics';
import { constants } from 'node:fs';
import { access, readFile, statfs } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';

// Health checks and the diagnostics report of a real Linux device (the cloudlink actions
// `checks` and `diagnose`). What the machine offers is read through a probe, so tests pass a
// fake and a check that cannot read its source on this machine is left out rather than guessed.

export const diagnoseVersion = 'flotilla-1';

export type HostProbe = {
  now(): number;
  // Bytes of the file system holding `path`; undefined when it cannot be read.
  disk(path: string): Promise<{ total: number; free: number } | undefined>;
  // Bytes; `available` as the kernel estimates it (MemAvailable).
  memory(): Promise<{ total: number; available: number }>;
  // A file's text, or undefined when it does not exist or cannot be read.
  read(path: string): Promise<string | undefined>;
  uptimeSeconds(): number;
  kernel(): string;
  interfaces(): string[];
  // Whether a unix socket accepts a connection: absent (no such file), denied (no permission),
  // refused (nothing listens, or not a socket).
  socket(path: string): Promise<SocketState>;
  // The full path of an executable found on PATH, or undefined.
  executable(name: string): Promise<string | undefined>;
};

export type SocketState = 'reachable' | 'refused' | 'denied' | 'absent';

// How long a socket may take to accept before it counts as not answering.
const socketTimeoutMs = 2000;

const probeSocket = (socketPath: string): Promise<SocketState> =>
  new Promise((resolve) => {
    const socket = connect({ path: socketPath });
    const done = (state: SocketState): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(state);
    };
    const timer = setTimeout(() => done('refused'), socketTimeoutMs);
    socket.once('connect', () => done('reachable'));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(
        error.code === 'ENOENT' || error.code === 'ENOTDIR'
          ? 'absent'
          : error.code === 'EACCES' || error.code === 'EPERM'
            ? 'denied'
            : 'refused',
      ),
    );
  });

const findExecutable = async (name: string): Promise<string | undefined> => {
  for (const directory of (process.env.PATH ?? '').split(path.delimiter)) {
    if (directory === '') continue;
    const candidate = path.join(directory, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
};

const readText = async (path: string): Promise<string | undefined> => {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
};

export const systemProbe: HostProbe = {
  now: () => Date.now(),
  disk: async (path) => {
    try {
      const stats = await statfs(path);
      return { total: stats.blocks * stats.bsize, free: stats.bavail * stats.bsize };
    } catch {
      return undefined;
    }
  },
  memory: async () => {
    const text = (await readText('/proc/meminfo')) ?? '';
    const available = /^MemAvailable:\s+(\d+) kB/m.exec(text);
    return {
      total: os.totalmem(),
      available: available ? Number(available[1]) * 1024 : os.freemem(),
    };
  },
  read: readText,
  uptimeSeconds: () => os.uptime(),
  kernel: () => `${os.type()} ${os.release()} ${os.arch()}`,
  interfaces: () =>
    Object.entries(os.networkInterfaces()).flatMap(([name, addresses]) =>
      (addresses ?? []).map(
        (address) => `${name}: ${address.address}/${address.netmask} (${address.family})`,
      ),
    ),
  socket: probeSocket,
  executable: findExecutable,
};

// Where balena-engine and Docker listen, in the order they are looked for, and their clients.
export const engineSockets = [
  '/var/run/balena-engine.sock',
  '/run/balena-engine.sock',
  '/var/run/docker.sock',
  '/run/docker.sock',
];
export const engineBinaries = ['balena-engine', 'docker'];

// A service shell such as ["docker", "exec", "-it", "{service}", "sh"] needs an engine.
export const usesContainerEngine = (serviceShell: readonly string[] | null): boolean => {
  const program = path.basename(serviceShell?.[0] ?? '');
  return engineBinaries.includes(program) || program === 'balena';
};

// Is a container engine reachable? Only the answers that mean something are failures: a socket
// that does not answer, an engine installed without its daemon, or no engine on a device whose
// service shell needs one (`expected`). A device without any engine, which runs its services
// otherwise, is told so and passes.
export const containerEngineCheck = async (
  probe: HostProbe,
  expected: boolean,
): Promise<CheckResult> => {
  const name = 'check_container_engine';
  for (const socketPath of engineSockets) {
    const state = await probe.socket(socketPath);
    if (state === 'absent') continue;
    if (state === 'reachable') {
      return { name, success: true, status: `Container engine reachable at ${socketPath}` };
    }
    return {
      name,
      success: false,
      status:
        state === 'denied'
          ? `${socketPath} exists but the agent may not use it (permission denied)`
          : `${socketPath} exists but the container engine does not answer on it`,
    };
  }
  for (const binary of engineBinaries) {
    const found = await probe.executable(binary);
    if (found) {
      return {
        name,
        success: false,
        status: `${found} is installed but no engine socket answers (${engineSockets.join(', ')}): is its daemon running?`,
      };
    }
  }
  return {
    name,
    success: !expected,
    status: expected
      ? `No container engine found (no balena-engine or docker socket or binary), but the service shell needs one`
      : `No container engine on this device (no balena-engine or docker socket or binary); services run without one`,
  };
};

// Thresholds of the checks.
export const diskFullRatio = 0.9;
export const memoryLowRatio = 0.1;
export const maxClockSkewMs = 30_000;

const percent = (ratio: number): string => `${Math.round(ratio * 100)}%`;
const gib = (bytes: number): string => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;

// Raspberry Pi firmware: bit 0 under-voltage now, bit 16 under-voltage since boot.
const throttledPath = '/sys/devices/platform/soc/soc:firmware/get_throttled';
const timesyncPath = '/run/systemd/timesync/synchronized';

// `engineExpected`: the device's configuration needs a container engine (its service shell).
export const runHostChecks = async (
  probe: HostProbe,
  options: { sentAt?: number; engineExpected?: boolean },
): Promise<ChecksReport> => {
  const checks: CheckResult[] = [];
  const disk = await probe.disk('/');
  if (disk && disk.total > 0) {
    const used = 1 - disk.free / disk.total;
    checks.push({
      name: 'check_disk_space',
      success: used < diskFullRatio,
      status: `Root file system ${percent(used)} used (${gib(disk.free)} free of ${gib(disk.total)})`,
    });
  }
  const memory = await probe.memory();
  const available = memory.total > 0 ? memory.available / memory.total : 0;
  checks.push({
    name: 'check_memory',
    success: available >= memoryLowRatio,
    status: `${percent(available)} of ${gib(memory.total)} memory available`,
  });
  const synchronized = (await probe.read(timesyncPath)) !== undefined;
  checks.push({
    name: 'check_timesync',
    success: synchronized,
    status: synchronized
      ? 'The clock is synchronised (systemd-timesyncd)'
      : `No time synchronisation reported (${timesyncPath} is missing)`,
  });
  if (options.sentAt !== undefined) {
    const skew = probe.now() - options.sentAt;
    checks.push({
      name: 'check_clock_skew',
      success: Math.abs(skew) <= maxClockSkewMs,
      status: `The device's clock is ${(Math.abs(skew) / 1000).toFixed(1)} s ${skew >= 0 ? 'ahead of' : 'behind'} the server's (network delay included)`,
    });
  }
  // The request came over the cloudlink: the device reaches the server now.
  checks.push({
    name: 'check_cloud_connectivity',
    success: true,
    status: 'Connected to the server (this check arrived over the cloudlink)',
  });
  const throttled = await probe.read(throttledPath);
  if (throttled !== undefined) {
    const bits = Number.parseInt(throttled.trim().replace(/^0x/, ''), 16);
    const now = (bits & 0x1) !== 0;
    const since = (bits & 0x10000) !== 0;
    checks.push({
      name: 'check_under_voltage',
      success: !now && !since,
      status: now
        ? 'Under-voltage now: the power supply is too weak'
        : since
          ? 'Under-voltage occurred since boot'
          : 'No under-voltage since boot',
    });
  }
  checks.push(await containerEngineCheck(probe, options.engineExpected ?? false));
  return { diagnose_version: diagnoseVersion, checks };
};

const section = (title: string, body: string): string => `=== ${title} ===\n${body.trimEnd()}\n\n`;

const duration = (seconds: number): string => {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return `${days} d ${hours} h ${minutes} min`;
};

export const hostDiagnoseReport = async (
  probe: HostProbe,
  recentLog: readonly string[],
): Promise<DiagnoseReport> => {
  const osRelease = (await probe.read('/etc/os-release')) ?? '(no /etc/os-release)';
  const disk = await probe.disk('/');
  const memory = await probe.memory();
  const stdout =
    section('Time', new Date(probe.now()).toISOString()) +
    section('OS', osRelease) +
    section('Kernel', probe.kernel()) +
    section('Uptime', duration(probe.uptimeSeconds())) +
    section('Network interfaces', probe.interfaces().join('\n') || '(none)') +
    section(
      'Disk usage (/)',
      disk ? `${gib(disk.total - disk.free)} used of ${gib(disk.total)}` : '(not readable)',
    ) +
    section('Memory', `${gib(memory.available)} available of ${gib(memory.total)}`) +
    section('Recent agent log', recentLog.join('\n') || '(empty)');
  return { diagnose_version: diagnoseVersion, stdout };
};
