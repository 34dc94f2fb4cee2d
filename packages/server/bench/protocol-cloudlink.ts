import { fork } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { cloudlinkPath } from '@flotilla/shared/cloudlink/messages';
import { WebSocket } from 'ws';
import type { Queryable } from '../src/infra/db/database.js';
import type { ClientReport, ClientRequest } from './cloudlink-clients.js';
import { summarize } from './measure.js';
import { integer } from './protocol-helpers.js';
import type { ProtocolDevice, ProtocolEnv, ProtocolResult } from './protocol-types.js';

// Protocol scenario (d): the server's memory per 1,000 open cloudlink websockets.

type Probe = 'registered' | 'missing';

// One websocket from this process: is the route there at all? A server without it answers the
// upgrade request like any unknown URL, 404.
const probeCloudlink = (env: ProtocolEnv, device: ProtocolDevice): Promise<Probe> =>
  new Promise<Probe>((resolve, reject) => {
    const url = new URL(cloudlinkPath, env.baseUrl);
    url.protocol = 'ws:';
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${device.key}` } });
    socket.on('unexpected-response', (_request, response) => {
      response.resume();
      socket.terminate();
      if (response.statusCode === 404) resolve('missing');
      else reject(new Error(`the cloudlink upgrade answered ${response.statusCode ?? '?'}`));
    });
    socket.on('open', () => {
      socket.close(1000, 'probe');
      resolve('registered');
    });
    socket.on('error', reject);
  });

const collectGarbage = async (): Promise<void> => {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) {
    gc?.();
    await sleep(100);
  }
};

const megabytes = (bytes: number): number => bytes / 1_048_576;

// Waits until the server has recorded every connection (the session rows are written after the
// upgrade), so the memory is measured at rest; a fixed pause when the table is not readable.
const waitForSessions = async (sql: Queryable, count: number): Promise<void> => {
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    try {
      const { rows } = await sql.query<{ n: number }>(
        'SELECT count(*)::int AS "n" FROM "cloudlink_session"',
      );
      if ((rows[0]?.n ?? 0) >= count) return;
    } catch {
      await sleep(2000);
      return;
    }
    await sleep(200);
  }
};

const isClientReport = (message: unknown): message is ClientReport =>
  typeof message === 'object' && message !== null && 'type' in message;

// The clients run in a child process, so their sockets and buffers stay out of the server's
// (this process's) heap and RSS.
export const cloudlinkMemory = async (
  env: ProtocolEnv,
  devices: readonly ProtocolDevice[],
): Promise<ProtocolResult> => {
  const name = `cloudlink: memory per 1,000 websockets`;
  const first = devices[0];
  if (!first) throw new Error('no devices');
  if ((await probeCloudlink(env, first)) === 'missing') {
    return {
      name,
      unit: 'conn/s',
      rate: Number.NaN,
      p50Ms: Number.NaN,
      p99Ms: Number.NaN,
      notes: 'skipped: cloudlink route not registered',
      errors: 0,
      firstError: undefined,
      skipped: 'cloudlink route not registered',
      details: {},
    };
  }
  const clients = devices.slice(0, env.options.cloudlinkConnections);
  const child = fork(fileURLToPath(new URL('./cloudlink-clients.ts', import.meta.url)), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const reports: ClientReport[] = [];
  let wake: (() => void) | undefined;
  child.on('message', (message: unknown) => {
    if (isClientReport(message)) reports.push(message);
    wake?.();
  });
  const nextReport = async <Type extends ClientReport['type']>(
    type: Type,
  ): Promise<Extract<ClientReport, { type: Type }>> => {
    for (;;) {
      const index = reports.findIndex((report) => report.type === type);
      const report = reports[index];
      if (report !== undefined) {
        reports.splice(index, 1);
        return report as Extract<ClientReport, { type: Type }>;
      }
      if (child.exitCode !== null) throw new Error('the cloudlink client process exited');
      await Promise.race([
        new Promise<void>((resolve) => (wake = resolve)),
        exited.then(() => undefined),
      ]);
    }
  };
  const send = (request: ClientRequest): void => {
    child.send(request);
  };

  try {
    await nextReport('ready');
    // The probe's own connection is closed and forgotten before the baseline is taken.
    await sleep(500);
    await collectGarbage();
    const before = process.memoryUsage();
    send({
      type: 'open',
      baseUrl: env.baseUrl,
      devices: clients.map((device) => ({ uuid: device.uuid, key: device.key })),
      concurrency: 50,
    });
    const opened = await nextReport('opened');
    await waitForSessions(env.sql, opened.opened);
    await collectGarbage();
    const after = process.memoryUsage();
    send({ type: 'close' });
    await nextReport('closed');
    const latencies = summarize(
      opened.latencies,
      opened.elapsedMs,
      opened.failed,
      opened.firstError,
    );
    const perThousand = opened.opened / 1000;
    const heapMb = megabytes(after.heapUsed - before.heapUsed) / perThousand;
    const rssMb = megabytes(after.rss - before.rss) / perThousand;
    const externalMb = megabytes(after.external - before.external) / perThousand;
    const gcNote =
      typeof (globalThis as { gc?: unknown }).gc === 'function' ? '' : ' (no --expose-gc: noisy)';
    return {
      name,
      unit: 'conn/s',
      rate: latencies.requestsPerSecond,
      p50Ms: latencies.p50Ms,
      p99Ms: latencies.p99Ms,
      notes:
        `${integer(opened.opened)} open: heap +${heapMb.toFixed(1)} MB, ` +
        `RSS +${rssMb.toFixed(1)} MB per 1,000${gcNote}`,
      errors: opened.failed,
      firstError: opened.firstError,
      details: {
        connections: opened.opened,
        heapUsedMbPer1000: heapMb,
        rssMbPer1000: rssMb,
        externalMbPer1000: externalMb,
        heapUsedBefore: before.heapUsed,
        heapUsedAfter: after.heapUsed,
        rssBefore: before.rss,
        rssAfter: after.rss,
      },
    };
  } finally {
    if (child.exitCode === null) child.kill();
    await exited;
  }
};
