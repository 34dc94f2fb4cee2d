import { ApiClient } from './api-client.js';
import type { BackoffPolicy } from './backoff.js';
import { type Clock, type Random, seededRandom, systemClock } from './clock.js';
import type { LogTuning } from './device-agent.js';
import { errorText, type Logger, silentLogger } from './logger.js';
import type { SimulatedDeviceTiming } from './runtime/simulated-device.js';
import { Scheduler } from './scheduler.js';
import { type SimulatedDeviceContext, SimulatedDeviceHandle } from './simulator-device.js';
import { type ResolvedFleet, resolveFleet } from './simulator-fleet.js';
import { compatibleTypes, deviceName, pickDeviceType } from './simulator-profiles.js';
import { SimulatorStore } from './simulator-store.js';
import type { UpdateFault } from './engine/update-faults.js';

export type SimulatorFleet = {
  slug: string;
  provisioningKey: string;
  count: number;
  // Known ids skip the fleet lookup (the server's demo knows them).
  applicationId?: number;
  deviceType?: string;
  // Device types to mix; default: the fleet's type and compatible catalogue types.
  deviceTypes?: readonly string[];
};

export type SimulatorOptions = {
  // API base URL, e.g. http://localhost:8080.
  api: string;
  fleets: readonly SimulatorFleet[];
  // Target-state poll interval (default 10 s; a poll-interval variable may only shorten it).
  pollIntervalMs?: number;
  reportIntervalMs?: number;
  metricsIntervalMs?: number;
  logIntervalMs?: readonly [number, number];
  downloadMs?: readonly [number, number];
  stepMs?: number;
  rebootOfflineMs?: readonly [number, number];
  lockRetryMs?: number;
  // Devices start spread over this long (default 50 ms per device, at most 60 s).
  startSpreadMs?: number;
  // Share of devices that hold an update lock from the start (0..1, default 0).
  updateLockChance?: number;
  // Share of devices whose disk is full from the start (0..1, default 0).
  diskFullChance?: number;
  // Share of host OS updates that fail and roll back (0..1, default 0).
  osUpdateFailureChance?: number;
  // Share of devices every release after their first breaks, and how (default crash-loop).
  updateFaultChance?: number;
  updateFault?: UpdateFault;
  // Between two steps of a host OS update's progress (default 4 s).
  osUpdateStepMs?: number;
  // How often a device looks up the supervisor release it should run (default 5 min).
  supervisorCheckMs?: number;
  // Keeps identities across runs (else every run registers new devices).
  stateDir?: string;
  seed?: number;
  logger?: Logger;
  clock?: Clock;
  requestTimeoutMs?: number;
  pollErrorBaseMs?: number;
  // Defaults to uncompressed gzip framing ('stored'), see LogStreamOptions.compression.
  logStream?: LogTuning;
  cloudlink?: { reconnect?: BackoffPolicy; pingIntervalMs?: number; stableAfterMs?: number };
  powerDelayMs?: number;
};

export type Simulator = {
  devices: SimulatedDeviceHandle[];
  stop(): Promise<void>;
};

const fleetOf = async (api: ApiClient, fleet: SimulatorFleet): Promise<ResolvedFleet> => {
  if (fleet.applicationId !== undefined && fleet.deviceType !== undefined) {
    return {
      id: fleet.applicationId,
      slug: fleet.slug,
      deviceType: fleet.deviceType,
      architecture: null,
    };
  }
  const resolved = await resolveFleet(api, fleet.slug, fleet.provisioningKey);
  return fleet.deviceType ? { ...resolved, deviceType: fleet.deviceType } : resolved;
};

const timingOf = (options: SimulatorOptions): SimulatedDeviceTiming => ({
  downloadMs: options.downloadMs ?? [3000, 12_000],
  stepMs: options.stepMs ?? 700,
  lockRetryMs: options.lockRetryMs ?? 30_000,
  rebootOfflineMs: options.rebootOfflineMs ?? [10_000, 20_000],
  logIntervalMs: options.logIntervalMs ?? [3000, 9000],
  osUpdateStepMs: options.osUpdateStepMs ?? 4000,
});

// Runs many simulated devices in one process on one shared scheduler. Resolves once every
// fleet is known and every device is created; devices then register and boot, staggered.
export const startSimulator = async (options: SimulatorOptions): Promise<Simulator> => {
  const logger = options.logger ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const random: Random = options.seed === undefined ? Math.random : seededRandom(options.seed);
  const scheduler = new Scheduler(clock, (error) =>
    logger.error(`simulator task failed: ${errorText(error)}`),
  );
  const api = new ApiClient({ baseUrl: options.api, clock, timeoutMs: options.requestTimeoutMs });
  const abort = new AbortController();
  const store = await SimulatorStore.open(options.stateDir ?? null);
  const timing = timingOf(options);
  const agent: SimulatedDeviceContext['agent'] = {
    pollIntervalMs: options.pollIntervalMs ?? 10_000,
    pollIntervalIsCeiling: true,
    reportIntervalMs: options.reportIntervalMs,
    metricsIntervalMs: options.metricsIntervalMs,
    requestTimeoutMs: options.requestTimeoutMs,
    pollErrorBaseMs: options.pollErrorBaseMs,
    logStream: { compression: 'stored', ...options.logStream },
    cloudlink: options.cloudlink,
    powerDelayMs: options.powerDelayMs,
  };

  const diskFullChance = options.diskFullChance ?? 0;
  const faultChance = options.updateFaultChance ?? 0;
  const devices: SimulatedDeviceHandle[] = [];
  for (const fleet of options.fleets) {
    const resolved = await fleetOf(api, fleet);
    const types = fleet.deviceTypes ?? compatibleTypes(resolved.deviceType, resolved.architecture);
    const context: SimulatedDeviceContext = {
      api,
      fleet: resolved,
      provisioningKey: fleet.provisioningKey,
      store,
      scheduler,
      logger,
      timing,
      agent,
      hostUpdates: {
        osUpdateFailureChance: options.osUpdateFailureChance ?? 0,
        supervisorCheckMs: options.supervisorCheckMs ?? 300_000,
      },
      signal: abort.signal,
    };
    for (let index = 0; index < fleet.count; index++) {
      // Keyed by server and fleet, so one state dir serves several servers without mix-ups.
      const key = `${api.baseUrl}|${resolved.slug}|${index}`;
      let stored = store.get(key);
      if (!stored) {
        stored = {
          name: deviceName(random),
          deviceType: pickDeviceType(random, types),
          seed: Math.floor(random() * 2 ** 32),
        };
        store.set(key, stored);
      }
      devices.push(
        new SimulatedDeviceHandle(key, stored, context, {
          updateLocked: random() < (options.updateLockChance ?? 0),
          // Drawn only when asked for, so a seed gives the same fleet as before.
          diskFull: diskFullChance > 0 && random() < diskFullChance,
          updateFault:
            faultChance > 0 && random() < faultChance
              ? (options.updateFault ?? 'crash-loop')
              : null,
        }),
      );
    }
    logger.info(
      `fleet ${resolved.slug}: ${fleet.count} simulated devices (${[...new Set(types)].join(', ')})`,
    );
  }
  await store.flush();

  const spread = options.startSpreadMs ?? Math.min(60_000, devices.length * 50);
  const starts = devices.map((device, index) => {
    const at = devices.length <= 1 ? 0 : (spread * index) / devices.length;
    return scheduler.after(at, () => {
      void device.start();
    });
  });

  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      abort.abort(new Error('simulator stopping'));
      for (const start of starts) start.cancel();
      await Promise.all(devices.map((device) => device.stop()));
      scheduler.stop();
      await store.flush();
    })();
    return stopped;
  };
  return { devices, stop };
};
