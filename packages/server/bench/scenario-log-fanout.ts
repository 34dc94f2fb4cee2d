import { type NatsServer, startNatsServer } from '../src/test-support/nats-server.js';
import type { ChildServer } from './processes.js';
import type { BenchEnv, Scenario, Side } from './scenario.js';
import { bearer, p99AtMost, throughputRatio } from './scenario-helpers.js';

// Device logs across processes: NDJSON uploads at saturation go to one Flotilla process, live
// tails of some of those devices read from another, so every line crosses between processes on
// the message bus. Both sides are Flotilla: "flotilla" is two processes on one nats-server
// (FLOTILLA_NATS_URL, docs/SCALING.md), where the tailed devices' lines are relayed as they are
// received (log-relay.ts), the "reference" two processes on PostgreSQL's LISTEN/NOTIFY, the
// default, where the tail reads them once stored. The processes are started once (prepare) and stopped afterwards.

const linesPerStream = 450;
const tailedDevices = 4;

type Pair = { ingest: ChildServer; tail: ChildServer };
type Started = { nats: NatsServer; pairs: Record<Side, Pair> };
let started: Started | undefined;

const pairOf = async (env: BenchEnv, settings: Record<string, string>): Promise<Pair> => {
  const ingest = await env.startServer('flotilla', settings);
  try {
    return { ingest, tail: await env.startServer('flotilla', settings) };
  } catch (error) {
    await ingest.stop();
    throw error;
  }
};

const pairCpu = (side: Side): { cpuMillis(): Promise<number> } => {
  const pair = started?.pairs[side];
  if (!pair) throw new Error('log-fanout: not prepared');
  return { cpuMillis: async () => (await pair.ingest.cpuMillis()) + (await pair.tail.cpuMillis()) };
};

const stopAll = async (): Promise<void> => {
  const current = started;
  started = undefined;
  if (!current) return;
  const servers = Object.values(current.pairs).flatMap((pair) => [pair.ingest, pair.tail]);
  await Promise.all(servers.map((server) => server.stop()));
  await current.nats.stop();
};

export const logFanoutScenario: Scenario = {
  id: 'log-fanout',
  extra: true,
  rows: [
    p99AtMost('live tail on another process, NATS fan-out, at saturation', 50, 'tailP99Ms'),
    throughputRatio(
      'log ingest with tails on another process: NATS vs NOTIFY fan-out',
      'lines/s',
      0.95,
    ),
  ],
  async prepare(env) {
    const nats = await startNatsServer();
    try {
      const flotilla = await pairOf(env, { FLOTILLA_NATS_URL: nats.url });
      try {
        started = { nats, pairs: { flotilla, reference: await pairOf(env, {}) } };
      } catch (error) {
        await Promise.all([flotilla.ingest.stop(), flotilla.tail.stop()]);
        throw error;
      }
    } catch (error) {
      await nats.stop();
      throw error;
    }
  },
  cleanUp: stopAll,
  // The progress lines show the CPU of each side's own pair of processes.
  flotillaServer: () => pairCpu('flotilla'),
  referenceServer: () => pairCpu('reference'),
  measure(side, env, window) {
    const pair = started?.pairs[side];
    if (!pair) throw new Error('log-fanout: not prepared');
    // The sides stream for different devices, as the single-process log rows do.
    const count = env.options.logStreams;
    const first = side === 'flotilla' ? 0 : count;
    const devices = env.devices.slice(first, first + count);
    if (devices.length < count) {
      throw new Error(`log-fanout needs ${2 * count} devices (BENCH_PROTOCOL_DEVICES)`);
    }
    return env.load.run(
      {
        kind: 'log-streams',
        baseUrl: pair.ingest.url,
        databaseUrl: env.databaseUrl,
        streams: devices.map((device, index) => ({
          path: `/device/v2/${device.uuid}/log-stream`,
          headers: bearer(device.key),
          linesPerSecond: linesPerStream,
          ...(index < tailedDevices
            ? {
                tail: {
                  path: `/device/v2/${device.uuid}/logs?stream=1`,
                  headers: bearer(env.tokens.admin),
                  baseUrl: pair.tail.url,
                },
              }
            : {}),
        })),
      },
      window,
    );
  },
};
