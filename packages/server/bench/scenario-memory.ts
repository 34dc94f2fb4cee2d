import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchEnv, Measure, Scenario, Side } from './scenario.js';

// Memory per idle cloudlink connection: a fresh server process (either side), N websockets held
// open by the load generator, VmRSS read from /proc after full collections before and after.
// The reference is a bare ws server (reference-server.ts) holding the same N connections.
//
// Before the baseline, N other devices connect and go: a server that has served connections
// keeps the allocator's high-water mark of connection setup (requests, queries, session rows),
// which is memory already there, not memory per connection. The measured devices are new to the
// server, so what it keeps for each (its link, socket, cached key) is counted.

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
  const count = env.options.cloudlinkConnections;
  const devices = env.linkDevices.slice(0, count);
  const warm = env.linkDevices.slice(count, 2 * count);
  const server = await env.startServer(side);
  try {
    // The other devices' connections, opened and closed, warm the route's code, the database
    // pool and the allocator, so the baseline holds them and the difference is the connections.
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
    if (side === 'flotilla') {
      await waitForSessions(
        env,
        warm.map((device) => device.id),
        warm.length,
      );
    }
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
    const openedCount = opened.metrics.opened ?? 0;
    if (side === 'flotilla') {
      await waitForSessions(
        env,
        devices.map((device) => device.id),
        openedCount,
      );
    }
    await sleep(500);
    await server.collectGarbage();
    const after = await server.rssBytes();
    await env.load.run({ kind: 'ws-close' }, { warmupMs: 0, durationMs: 0 });
    return {
      metrics: {
        ...opened.metrics,
        kbPerConnection: openedCount > 0 ? (after - before) / openedCount / 1024 : Number.NaN,
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
