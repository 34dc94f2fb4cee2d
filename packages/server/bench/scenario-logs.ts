import type { LogStreamSpec } from './load-jobs.js';
import type { BenchDevice } from './protocol-devices.js';
import type { BenchEnv, Scenario, Side } from './scenario.js';
import { baseUrlOf, bearer, p99AtMost, throughputRatio } from './scenario-helpers.js';

// Device logs: NDJSON uploads at saturation (many devices, each just under Flotilla's per-stream
// limit of 500 lines/s), and live tails (a subscriber per device, ?stream=1) measuring ingest →
// subscriber latency, at saturation and at a moderate rate. The reference stores the same lines
// with batched INSERTs and tails them in-process (reference-logs.ts). The two sides stream for
// different devices, so neither's rows sit in the other's way (Flotilla trims per device).

const saturationLinesPerStream = 450;
const tailDevicesAtSaturation = 4;
const moderateTailDevices = 10;

const streamSpec = (
  env: BenchEnv,
  side: Side,
  device: BenchDevice,
  linesPerSecond: number,
  tailed: boolean,
): LogStreamSpec => {
  const tail = tailed
    ? side === 'flotilla'
      ? { path: `/device/v2/${device.uuid}/logs?stream=1`, headers: bearer(env.tokens.admin) }
      : { path: `/ref/log-tail/${device.id}`, headers: {} }
    : undefined;
  return side === 'flotilla'
    ? {
        path: `/device/v2/${device.uuid}/log-stream`,
        headers: bearer(device.key),
        linesPerSecond,
        ...(tail ? { tail } : {}),
      }
    : {
        path: `/ref/log-stream/${device.id}`,
        headers: {},
        linesPerSecond,
        ...(tail ? { tail } : {}),
      };
};

// Flotilla streams for the first `count` devices of `offset`, the reference for the next ones.
const devicesOf = (env: BenchEnv, side: Side, offset: number, count: number): BenchDevice[] => {
  const start = offset + (side === 'flotilla' ? 0 : count);
  const devices = env.devices.slice(start, start + count);
  if (devices.length < count) {
    throw new Error(
      `the log scenarios need ${offset + 2 * count} devices (BENCH_PROTOCOL_DEVICES)`,
    );
  }
  return devices;
};

export const logIngestScenario: Scenario = {
  id: 'log-ingest',
  rows: [
    throughputRatio('log ingest at saturation (vs batched INSERT route)', 'lines/s', 0.75),
    p99AtMost('live tail ingest → ?stream=1 subscriber, at saturation', 50, 'tailP99Ms'),
  ],
  measure(side, env, window) {
    const devices = devicesOf(env, side, 0, env.options.logStreams);
    return env.load.run(
      {
        kind: 'log-streams',
        baseUrl: baseUrlOf(env, side),
        databaseUrl: env.databaseUrl,
        streams: devices.map((device, index) =>
          streamSpec(env, side, device, saturationLinesPerStream, index < tailDevicesAtSaturation),
        ),
      },
      window,
    );
  },
};

export const liveTailScenario: Scenario = {
  id: 'live-tail',
  rows: [p99AtMost('live tail ingest → ?stream=1 subscriber, moderate rate', 50, 'tailP99Ms')],
  measure(side, env, window) {
    const devices = devicesOf(env, side, 2 * env.options.logStreams, moderateTailDevices);
    const perDevice = env.options.tailLinesPerSecond / moderateTailDevices;
    return env.load.run(
      {
        kind: 'log-streams',
        baseUrl: baseUrlOf(env, side),
        databaseUrl: env.databaseUrl,
        streams: devices.map((device) => streamSpec(env, side, device, perDevice, true)),
      },
      window,
    );
  },
};
