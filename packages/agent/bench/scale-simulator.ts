import { setMaxListeners } from 'node:events';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Simulator, type SimulatorFleet, startSimulator } from '../src/simulator.js';

// The scale scenario's devices (packages/server/bench/scale.ts forks this file): the agent's
// simulator, thousands of devices on one shared scheduler, in a process of its own. It times
// every API call the devices make (through node's http, as the agent sends them) and answers
// the orchestrator's questions over IPC:
//   → {type: 'start', ...}   ← {type: 'started'}
//   → {type: 'status'}       ← {type: 'status', online, failed, cloudlink}
//   → {type: 'reset'}        (starts the measured window)
//   → {type: 'collect'}      ← {type: 'collected', calls: {<kind>: CallStats}}
//   → {type: 'links'}        ← {type: 'links', devices: [{uuid, changes: [[ms, up, attempts]...]}]}
//   → {type: 'stop'}         ← {type: 'stopped'}, then the process exits

export type ScaleStart = {
  type: 'start';
  servers: { url: string; fleets: SimulatorFleet[] }[];
  pollIntervalMs: number;
  metricsIntervalMs: number;
  startSpreadMs: number;
  stateDir: string;
};

export type CallStats = {
  count: number;
  errors: number;
  firstError: string | null;
  p50Ms: number | null;
  p99Ms: number | null;
};

// Every device listens on the simulator's one abort signal.
setMaxListeners(0);

type Kind = 'poll' | 'report' | 'register' | 'other';

const kindOf = (method: string, url: string): Kind => {
  if (method === 'GET' && /\/device\/v3\/[^/]+\/state$/.test(url)) return 'poll';
  if (method === 'PATCH' && url.endsWith('/device/v3/state')) return 'report';
  if (method === 'POST' && url.endsWith('/device/register')) return 'register';
  return 'other';
};

type Calls = { latencies: number[]; errors: number; firstError: string | null };
const fresh = (): Record<Kind, Calls> => ({
  poll: { latencies: [], errors: 0, firstError: null },
  report: { latencies: [], errors: 0, firstError: null },
  register: { latencies: [], errors: 0, firstError: null },
  other: { latencies: [], errors: 0, firstError: null },
});
let calls = fresh();

// Nearest-rank percentile of an ascending array.
const percentile = (sorted: readonly number[], p: number): number | null => {
  if (sorted.length === 0) return null;
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ??
    null
  );
};

const statsOf = (entry: Calls): CallStats => {
  const sorted = [...entry.latencies].sort((a, b) => a - b);
  return {
    count: sorted.length,
    errors: entry.errors,
    firstError: entry.firstError,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
  };
};

// Statuses the devices expect; anything else (and no answer at all) is an error.
const expected = (kind: Kind, status: number): boolean =>
  kind === 'poll' ? status === 200 || status === 304 : status < 400;

// Every API call the devices make goes out through node's http (the agent's transport,
// src/http-transport.ts): each request is timed from its creation to its answer's headers. The
// long-lived log uploads and the cloudlink's websocket (its upgrade) are not calls to time.
const timed = (path: string): boolean =>
  !path.endsWith('/log-stream') && !path.startsWith('/cloudlink');

const originalRequest = http.request;
const timedRequest = (...args: unknown[]): http.ClientRequest => {
  const request: http.ClientRequest = Reflect.apply(originalRequest, http, args);
  if (!timed(request.path)) return request;
  const kind = kindOf(request.method, request.path);
  const entry = calls[kind];
  const began = performance.now();
  request.once('response', (response) => {
    const status = response.statusCode ?? 0;
    if (expected(kind, status)) {
      entry.latencies.push(performance.now() - began);
    } else {
      entry.errors += 1;
      entry.firstError ??= `${request.method} ${request.path} answered ${status}`;
    }
  });
  request.once('error', (error) => {
    entry.errors += 1;
    entry.firstError ??= `${request.method} ${request.path}: ${error.message}`;
  });
  return request;
};
Object.defineProperty(http, 'request', { value: timedRequest });

const simulators: Simulator[] = [];

// Every device's cloudlink going up and down, with the wall-clock time it was seen (sampled every
// 20 ms) and how many connection attempts it had made by then: the multi-node test measures how
// long, and in how many attempts, a device reconnected after a server died.
type LinkChange = [at: number, up: boolean, attempts: number];
const linkChanges = new Map<string, LinkChange[]>();
const sampleLinks = (): void => {
  const now = Date.now();
  for (const simulator of simulators) {
    for (const device of simulator.devices) {
      const uuid = device.uuid;
      if (uuid === null) continue;
      const up = device.agent?.cloudlinkConnected === true;
      const change: LinkChange = [now, up, device.agent?.cloudlinkAttempts ?? 0];
      const changes = linkChanges.get(uuid);
      if (!changes) linkChanges.set(uuid, [change]);
      else if (changes.at(-1)?.[1] !== up) changes.push(change);
    }
  }
};
setInterval(sampleLinks, 20).unref();

const start = async (message: ScaleStart): Promise<void> => {
  for (const [index, server] of message.servers.entries()) {
    simulators.push(
      await startSimulator({
        api: server.url,
        fleets: server.fleets,
        pollIntervalMs: message.pollIntervalMs,
        metricsIntervalMs: message.metricsIntervalMs,
        startSpreadMs: message.startSpreadMs,
        // One store per simulator: two would race on one file.
        stateDir: path.join(message.stateDir, `server-${index}`),
        // Quiet devices: a line every 30-90 s, the upload closed after 10 s without one, so the
        // process's sockets stay within the machine's open-file limit (a websocket per device).
        logIntervalMs: [30_000, 90_000],
        logStream: { idleCloseMs: 10_000 },
        seed: 15,
      }),
    );
  }
};

const status = () => {
  const devices = simulators.flatMap((simulator) => simulator.devices);
  return {
    type: 'status' as const,
    devices: devices.length,
    online: devices.filter((device) => device.phase === 'online').length,
    failed: devices.filter((device) => device.phase === 'failed').length,
    cloudlink: devices.filter((device) => device.agent?.cloudlinkConnected === true).length,
    firstFailure: devices.find((device) => device.phase === 'failed')?.error ?? null,
  };
};

const reply = (message: object): void => {
  process.send?.(message);
};

const typeOf = (message: unknown): unknown =>
  typeof message === 'object' && message !== null && 'type' in message ? message.type : undefined;

// The orchestrator's start message (its own process, so a shape check is enough).
const isStart = (message: unknown): message is ScaleStart =>
  typeOf(message) === 'start' &&
  typeof message === 'object' &&
  message !== null &&
  'servers' in message &&
  Array.isArray(message.servers);

process.on('message', (message: unknown) => {
  const work = async (): Promise<void> => {
    if (isStart(message)) {
      await start(message);
      reply({ type: 'started' });
      return;
    }
    switch (typeOf(message)) {
      case 'status':
        reply(status());
        return;
      case 'links':
        sampleLinks();
        reply({
          type: 'links',
          devices: [...linkChanges].map(([uuid, changes]) => ({ uuid, changes })),
        });
        return;
      case 'reset':
        calls = fresh();
        return;
      case 'collect':
        reply({
          type: 'collected',
          calls: {
            poll: statsOf(calls.poll),
            report: statsOf(calls.report),
            register: statsOf(calls.register),
            other: statsOf(calls.other),
          },
        });
        return;
      case 'stop':
        await Promise.all(simulators.map((simulator) => simulator.stop()));
        reply({ type: 'stopped' });
        process.exit(0);
    }
  };
  work().catch((error: unknown) => {
    console.error('scale simulator:', error);
    process.exit(1);
  });
});
process.on('disconnect', () => process.exit(0));
reply({ type: 'ready' });
