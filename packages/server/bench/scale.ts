import { rm } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { BenchOptions, ScaleBus } from './bench-options.js';
import { cpuMillis, treeCpuMillis } from './proc-stats.js';
import { type ChildServer, repoRoot } from './processes.js';
import { createProvisioningKeys, type ScaleFleet } from './protocol-devices.js';
import type { CallStats } from './scale-simulator-client.js';
import {
  maxDevicesPerProcess,
  type SimulatorGroup,
  startSimulatorGroup,
} from './scale-simulators.js';
import type { SeedInfo } from './seed.js';
import { startNatsServer } from '../src/test-support/nats-server.js';

// Scale on one machine : N devices of the agent's simulator (a process of its own)
// register, poll, report, log and hold a cloudlink, first at the "default" poll interval, then at
// ten times that rate (metrics reports too), against one fresh Flotilla process, then against two
// on the same PostgreSQL (half the fleets each), then three on one nats-server
// (FLOTILLA_NATS_URL, the bus of docs/SCALING.md "Several machines"; a third of the fleets each). Each phase measures one window after every
// device has booted: the default window is one poll interval, so every device polls in it.
// More devices than one process may hold sockets for (scale-simulators.ts) start with as many
// servers as they need, each with a simulator process of its own.

export type ScalePhase = {
  servers: number;
  bus: ScaleBus;
  rate: 'default' | '10x';
  pollIntervalMs: number;
  metricsIntervalMs: number;
  devices: number;
  online: number;
  cloudlink: number;
  windowMs: number;
  polls: CallStats;
  reports: CallStats;
  errors: number;
  firstError: string | null;
  // Percent of one core per 1,000 devices.
  serverCpuPer1000: number;
  postgresCpuPer1000: number;
  simulatorCpuPercent: number;
  serverRssMb: number[];
};

export type ScaleEnv = {
  options: BenchOptions;
  seed: SeedInfo;
  db: pg.Pool;
  startFlotilla: (env?: Record<string, string>) => Promise<ChildServer>;
  postmasterPid: () => Promise<number | undefined>;
  log: (line: string) => void;
};

const fleetsUsed = 10;

const sum = async (values: Promise<number>[]): Promise<number> =>
  (await Promise.all(values)).reduce((total, value) => total + value, 0);

// Until every device is online, or none has come online for a minute after the start spread (a
// device still registering then, e.g. after timeouts, counts as an error of the phase).
const stallMs = 60_000;

const waitForBoot = async (
  simulator: SimulatorGroup,
  devices: number,
  spreadMs: number,
  log: (line: string) => void,
): Promise<void> => {
  const began = performance.now();
  let lastLog = began;
  let best = -1;
  let progressAt = began;
  for (;;) {
    const status = await simulator.status();
    if (status.online + status.failed >= devices) return;
    const now = performance.now();
    if (status.online > best) {
      best = status.online;
      progressAt = now;
    } else if (now - began > spreadMs && now - progressAt > stallMs) {
      log(`    ${devices - status.online} devices did not come online; measuring the others`);
      return;
    }
    if (now - lastLog > 30_000) {
      log(`    ${status.online} of ${devices} devices online, ${status.cloudlink} on cloudlink`);
      lastLog = now;
    }
    await sleep(2000);
  }
};

const runPhase = async (
  env: ScaleEnv,
  bus: ScalePhase['bus'],
  servers: readonly ChildServer[],
  fleets: readonly ScaleFleet[],
  rate: ScalePhase['rate'],
): Promise<ScalePhase> => {
  const { scaleDevices: devices, scalePollMs, scaleSpreadMs } = env.options;
  const pollIntervalMs = rate === 'default' ? scalePollMs : scalePollMs / 10;
  // The agent's default metrics interval (5 min) is half the default poll interval.
  const metricsIntervalMs = pollIntervalMs / 2;
  const windowMs = rate === 'default' ? scalePollMs : Math.max(30_000, (2 * scalePollMs) / 10);
  const perFleet = Math.ceil(devices / fleets.length);
  const simulator = await startSimulatorGroup(servers.length);
  try {
    await simulator.start({
      servers: servers.map((server, index) => ({
        url: server.url,
        fleets: fleets
          .filter((_fleet, fleetIndex) => fleetIndex % servers.length === index)
          .map((fleet) => ({
            slug: fleet.slug,
            provisioningKey: fleet.provisioningKey,
            count: perFleet,
            applicationId: fleet.applicationId,
            deviceType: fleet.deviceType,
            deviceTypes: [fleet.deviceType],
          })),
      })),
      pollIntervalMs,
      metricsIntervalMs,
      startSpreadMs: scaleSpreadMs,
      // Identities kept per server count: the 10x phase reuses the default phase's devices.
      stateDir: path.join(repoRoot, 'data', `bench-scale-${servers.length}`),
    });
    env.log(
      `  scale, ${servers.length} server(s), ${rate} rate (poll every ${pollIntervalMs / 1000} s): booting ${devices} devices`,
    );
    await waitForBoot(simulator, perFleet * fleets.length, scaleSpreadMs, env.log);
    const boot = await simulator.collect();
    env.log(
      `    boot: ${boot.register.count} registrations (${boot.register.errors} errors, p99 ${boot.register.p99Ms?.toFixed(0) ?? '-'} ms), ` +
        `${boot.poll.count} first polls (p99 ${boot.poll.p99Ms?.toFixed(0) ?? '-'} ms), ${boot.poll.errors + boot.report.errors + boot.other.errors} other errors`,
    );
    const pgPid = await env.postmasterPid();
    simulator.reset();
    const began = performance.now();
    const serverCpu0 = await sum(servers.map((server) => server.cpuMillis()));
    const pgCpu0 = pgPid === undefined ? Number.NaN : await treeCpuMillis(pgPid);
    const simCpu0 = await sum(simulator.pids.map((pid) => cpuMillis(pid)));
    env.log(`    measuring ${windowMs / 1000} s`);
    await sleep(windowMs);
    const calls = await simulator.collect();
    const wallMs = performance.now() - began;
    const serverCpu = (await sum(servers.map((server) => server.cpuMillis()))) - serverCpu0;
    const pgCpu = pgPid === undefined ? Number.NaN : (await treeCpuMillis(pgPid)) - pgCpu0;
    const simCpu = (await sum(simulator.pids.map((pid) => cpuMillis(pid)))) - simCpu0;
    const status = await simulator.status();
    const perThousand = (cpuMs: number): number => (100 * cpuMs) / wallMs / (status.devices / 1000);
    const kinds = [calls.poll, calls.report, calls.register, calls.other];
    const phase: ScalePhase = {
      servers: servers.length,
      bus,
      rate,
      pollIntervalMs,
      metricsIntervalMs,
      devices: status.devices,
      online: status.online,
      cloudlink: status.cloudlink,
      windowMs: wallMs,
      polls: calls.poll,
      reports: calls.report,
      errors: kinds.reduce((total, kind) => total + kind.errors, 0) + status.failed,
      firstError:
        kinds.find((kind) => kind.firstError !== null)?.firstError ??
        (status.online < status.devices
          ? `${status.devices - status.online} devices not online`
          : null),
      serverCpuPer1000: perThousand(serverCpu),
      postgresCpuPer1000: perThousand(pgCpu),
      simulatorCpuPercent: (100 * simCpu) / wallMs,
      serverRssMb: await Promise.all(
        servers.map(async (server) => (await server.rssBytes()) / 1_048_576),
      ),
    };
    env.log(
      `    polls ${phase.polls.count} (p99 ${phase.polls.p99Ms?.toFixed(1) ?? '-'} ms), reports ${phase.reports.count} ` +
        `(p99 ${phase.reports.p99Ms?.toFixed(1) ?? '-'} ms), ${phase.errors} errors, ` +
        `Flotilla ${phase.serverCpuPer1000.toFixed(2)}% of a core per 1,000 devices`,
    );
    return phase;
  } finally {
    await simulator.stop();
  }
};

// The fewest servers whose every one gets at most maxDevicesPerProcess devices (fleets are dealt
// to the servers in turn, whole).
export const serversFor = (devices: number): number => {
  const perFleet = Math.ceil(devices / fleetsUsed);
  let servers = 1;
  while (
    servers < fleetsUsed &&
    Math.ceil(fleetsUsed / servers) * perFleet > maxDevicesPerProcess
  ) {
    servers += 1;
  }
  return servers;
};

export type ServerSetup = { count: number; bus: ScalePhase['bus'] };

// One and two servers on PostgreSQL's bus, then three on NATS; or, when one server cannot hold
// the devices, the fewest that can on each bus (at least three on NATS).
export const serverSetups = (devices: number): ServerSetup[] => {
  const least = serversFor(devices);
  if (least === 1) {
    return [
      { count: 1, bus: 'postgres' },
      { count: 2, bus: 'postgres' },
      { count: 3, bus: 'nats' },
    ];
  }
  return [
    { count: least, bus: 'postgres' },
    { count: Math.max(least, 3), bus: 'nats' },
  ];
};

export const runScale = async (env: ScaleEnv): Promise<ScalePhase[]> => {
  const fleets = await createProvisioningKeys(
    env.db,
    env.seed.fleets.slice(0, fleetsUsed).map((fleet) => fleet.id),
  );
  const phases: ScalePhase[] = [];
  const setups = serverSetups(env.options.scaleDevices).filter((setup) =>
    env.options.scaleBuses.includes(setup.bus),
  );
  for (const { count, bus } of setups) {
    const stateDir = path.join(repoRoot, 'data', `bench-scale-${count}`);
    await rm(stateDir, { recursive: true, force: true });
    const servers: ChildServer[] = [];
    const nats = bus === 'nats' ? await startNatsServer() : undefined;
    try {
      const serverEnv: Record<string, string> = nats ? { FLOTILLA_NATS_URL: nats.url } : {};
      for (let i = 0; i < count; i++) servers.push(await env.startFlotilla(serverEnv));
      phases.push(await runPhase(env, bus, servers, fleets, 'default'));
      phases.push(await runPhase(env, bus, servers, fleets, '10x'));
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      await nats?.stop();
      await rm(stateDir, { recursive: true, force: true });
    }
  }
  return phases;
};
