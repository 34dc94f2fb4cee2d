import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchEnv, Measure, Scenario, Side } from './scenario.js';

// Memory per idle cloudlink connection: a fresh server process (either side), N websockets held
// open by the load generator, VmRSS read from /proc after full collections before and after.
// The reference is a bare ws server (reference-server.ts) holding the same N connections.

// Flotilla records a session row after the upgrade: measure once every connection is at rest
// (ten thousand rows take a while on a busy machine).
const sessionsTimeoutMs = 180_000;
const waitForSessions = async (
  env: BenchEnv,
  deviceIds: readonly number[],
  count: number,
): Promise<void> => {
  const deadline = performance.now() + sessionsTimeoutMs;
  while (performance.now() < deadline) {
    const { rows } = await env.db.query<{ n: number }>(
      'SELECT count(*)::int AS "n" FROM "cloudlink_session" WHERE "device" = ANY($1::int[])',
      [deviceIds],
    );
    if ((rows[0]?.n ?? 0) >= count) return;
    await sleep(200);
  }
  throw new Error(
    `Flotilla recorded fewer than ${count} cloudlink sessions within ${sessionsTimeoutMs / 1000} s`,
  );
};

const measureMemory = async (side: Side, env: BenchEnv): Promise<Measure> => {
  const devices = env.devices.slice(0, env.options.cloudlinkConnections);
  const server = await env.startServer(side);
  try {
    // A first tenth of the connections, opened and closed, warms the route's code and the
    // server's database pool, so the baseline holds them and the difference is the connections.
    const warm = devices.slice(0, Math.max(1, Math.floor(devices.length / 10)));
    await env.load.run(
      {
        kind: 'ws-open',
        baseUrl: server.url,
        keys: warm.map((device) => device.key),
        uuids: warm.map((device) => device.uuid),
        concurrency: 50,
      },
      { warmupMs: 0, durationMs: 0 },
    );
    await env.load.run({ kind: 'ws-close' }, { warmupMs: 0, durationMs: 0 });
    await sleep(500);
    await server.collectGarbage();
    const before = await server.rssBytes();
    const opened = await env.load.run(
      {
        kind: 'ws-open',
        baseUrl: server.url,
        keys: devices.map((device) => device.key),
        uuids: devices.map((device) => device.uuid),
        concurrency: 50,
      },
      { warmupMs: 0, durationMs: 0 },
    );
    const count = opened.metrics.opened ?? 0;
    if (side === 'flotilla') {
      await waitForSessions(
        env,
        devices.map((device) => device.id),
        count,
      );
    }
    await sleep(500);
    await server.collectGarbage();
    const after = await server.rssBytes();
    await env.load.run({ kind: 'ws-close' }, { warmupMs: 0, durationMs: 0 });
    return {
      metrics: {
        ...opened.metrics,
        kbPerConnection: count > 0 ? (after - before) / count / 1024 : Number.NaN,
        rssBeforeBytes: before,
        rssAfterBytes: after,
      },
      requests: opened.requests,
      errors: opened.errors,
      firstError: opened.firstError,
    };
  } finally {
    await server.stop();
  }
};

export const memoryScenario: Scenario = {
  id: 'cloudlink-memory',
  rows: [
    {
      name: 'RSS per idle cloudlink connection (vs bare ws server), fresh process',
      metric: 'kbPerConnection',
      unit: 'KB',
      goal: { kind: 'absolute', better: 'lower', target: 10 },
      goalText: '≤ 10 KB',
    },
  ],
  measure: (side, env) => measureMemory(side, env),
};
