import type {
  CheckResult,
  ChecksReport,
  DiagnoseReport,
} from '@flotilla/shared/diagnostics/diagnostics';
import { readFile, statfs } from 'node:fs/promises';
import os from 'node:os';

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

export const runHostChecks = async (
  probe: HostProbe,
  options: { sentAt?: number },
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
