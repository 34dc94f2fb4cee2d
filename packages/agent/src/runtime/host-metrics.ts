import { readFile, statfs } from 'node:fs/promises';
import os from 'node:os';
import type { DeviceMetrics } from './device-runtime.js';

const megabytes = (bytes: number): number => Math.round(bytes / 1024 / 1024);

const readText = async (path: string): Promise<string | null> => {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
};

type CpuSample = { idle: number; total: number };

const sampleCpus = (): CpuSample =>
  os.cpus().reduce(
    (sum, cpu) => {
      const { user, nice, sys, idle, irq } = cpu.times;
      return { idle: sum.idle + idle, total: sum.total + user + nice + sys + idle + irq };
    },
    { idle: 0, total: 0 },
  );

// Interfaces that are plumbing (containers, VPN, loopback), not the device's addresses.
const ignoredInterface = /^(lo|docker\d*|balena\d*|br-|veth|supervisor0|resin-vpn|tun\d*)/;

export type NetworkInfo = { ipAddress: string; macAddress: string };

export const hostNetwork = (): NetworkInfo => {
  const addresses: string[] = [];
  const macs = new Set<string>();
  for (const [name, entries] of Object.entries(os.networkInterfaces())) {
    if (ignoredInterface.test(name) || !entries) continue;
    for (const entry of entries) {
      if (entry.internal) continue;
      if (entry.family === 'IPv4') addresses.push(entry.address);
      if (entry.mac !== '00:00:00:00:00:00') macs.add(entry.mac.toUpperCase());
    }
  }
  return { ipAddress: addresses.join(' '), macAddress: [...macs].join(' ') };
};

// PRETTY_NAME of /etc/os-release, e.g. "Debian GNU/Linux 12 (bookworm)".
export const hostOsVersion = async (): Promise<string> => {
  const text = await readText('/etc/os-release');
  const match = text ? /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(text) : null;
  return match?.[1] ?? `${os.type()} ${os.release()}`;
};

// Real metrics from Node's os and fs modules and sysfs; no native code, no extra tools.
export class HostMetrics {
  #previous: CpuSample | null = null;

  async read(): Promise<DeviceMetrics> {
    const sample = sampleCpus();
    const previous = this.#previous;
    this.#previous = sample;
    let cpu: number;
    if (previous && sample.total > previous.total) {
      const busy = 1 - (sample.idle - previous.idle) / (sample.total - previous.total);
      cpu = busy * 100;
    } else {
      // First reading: the one-minute load spread over the cores.
      const [load = 0] = os.loadavg();
      cpu = (load / Math.max(1, os.cpus().length)) * 100;
    }
    const total = os.totalmem();
    const metrics: DeviceMetrics = {
      cpu_usage: Math.round(Math.min(100, Math.max(0, cpu))),
      cpu_temp: await this.#temperature(),
      memory_usage: megabytes(total - os.freemem()),
      memory_total: megabytes(total),
      storage_usage: 0,
      storage_total: 0,
      is_undervolted: await this.#undervolted(),
    };
    try {
      const disk = await statfs('/');
      metrics.storage_total = megabytes(disk.blocks * disk.bsize);
      metrics.storage_usage = megabytes((disk.blocks - disk.bfree) * disk.bsize);
    } catch {
      // statfs is missing on some platforms; storage stays unreported as 0.
    }
    return metrics;
  }

  async #temperature(): Promise<number | null> {
    const text = await readText('/sys/class/thermal/thermal_zone0/temp');
    const milli = text === null ? Number.NaN : Number(text.trim());
    return Number.isFinite(milli) ? Math.round(milli / 1000) : null;
  }

  // Raspberry Pi firmware exposes the throttling flags; bit 0 is "under-voltage now".
  async #undervolted(): Promise<boolean> {
    const text = await readText('/sys/devices/platform/soc/soc:firmware/get_throttled');
    if (text === null) return false;
    const flags = Number.parseInt(text.trim(), 16);
    return Number.isFinite(flags) && (flags & 1) === 1;
  }
}
