import { once } from 'node:events';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Queryable } from '../src/infra/db/database.js';
import { defaultIngestLimits } from '../src/features/device-logs/log-ingest.js';
import { integer } from './protocol-helpers.js';
import type { ProtocolDevice, ProtocolEnv, ProtocolResult } from './protocol-types.js';

// Protocol scenario (c): NDJSON log ingest over long-lived uploads.

// Lines per second each stream offers: just under the server's per-stream limit, as a well-
// behaved agent does, so nothing is dropped and the total measures the server, not the limit.
const streamLinesPerSecond = Math.floor(defaultIngestLimits.linesPerSecond * 0.9);
const tickMs = 100;

const logLines = (device: ProtocolDevice, count: number, n: number): string => {
  const now = Date.now();
  let text = '';
  for (let i = 0; i < count; i++) {
    const line = n * count + i;
    text += `${JSON.stringify({
      message: `[main] GET /api/v1/sensors/${line % 64} 200 ${(line % 97) / 10} ms - request ${line}`,
      timestamp: now,
      isSystem: false,
      isStdErr: line % 25 === 0,
      serviceId: 2 * (device.id % 200) + 1,
    })}\n`;
  }
  return text;
};

type StreamOutcome = { sent: number; status: number; error: string | undefined };

// One long-lived POST /device/v2/:uuid/log-stream, written in paced chunks until `until`.
const streamLogs = async (
  env: ProtocolEnv,
  device: ProtocolDevice,
  until: number,
): Promise<StreamOutcome> => {
  const request = http.request(`${env.baseUrl}/device/v2/${device.uuid}/log-stream`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${device.key}`,
      'content-type': 'application/x-ndjson',
    },
  });
  let answered = false;
  const response = new Promise<number>((resolve, reject) => {
    request.on('response', (incoming) => {
      answered = true;
      incoming.resume();
      incoming.on('end', () => resolve(incoming.statusCode ?? 0));
    });
    request.on('error', reject);
  });
  const linesPerTick = Math.max(1, Math.round((streamLinesPerSecond * tickMs) / 1000));
  let sent = 0;
  let n = 0;
  let due = performance.now();
  try {
    // An early answer (401...) ends the upload.
    while (performance.now() < until && !answered) {
      const more = request.write(logLines(device, linesPerTick, n++));
      sent += linesPerTick;
      if (!more) await once(request, 'drain');
      due += tickMs;
      const wait = due - performance.now();
      // Behind schedule (back-pressure, a busy loop): carry on, never burst to catch up.
      if (wait > 0) await sleep(wait);
      else due = performance.now();
    }
    request.end();
    const status = await response;
    return { sent, status, error: status === 201 ? undefined : `answered ${status}` };
  } catch (error) {
    request.destroy();
    return { sent, status: 0, error: error instanceof Error ? error.message : String(error) };
  }
};

const newestLogId = async (sql: Queryable): Promise<number> => {
  const { rows } = await sql.query<{ id: string }>(
    'SELECT coalesce(max("id"), 0)::text AS "id" FROM "device_log"',
  );
  return Number(rows[0]?.id ?? 0);
};

export const logIngest = async (
  env: ProtocolEnv,
  devices: readonly ProtocolDevice[],
): Promise<ProtocolResult> => {
  const streams = devices.slice(0, env.options.logStreams);
  const { warmupMs, durationMs } = env.options.load;
  // Retention trims each device's oldest lines as new ones arrive, so rows are not counted:
  // lines stored = growth of the identity column (ids are never reused).
  const startId = await newestLogId(env.sql);
  const began = performance.now();
  const until = began + warmupMs + durationMs;
  const outcomes = Promise.all(streams.map((device) => streamLogs(env, device, until)));
  await sleep(warmupMs);
  const windowId = await newestLogId(env.sql);
  const windowStart = performance.now();
  await sleep(Math.max(0, until - windowStart));
  // The rate is what was stored during the window; when the server is slower than the offered
  // load, what the sockets still hold is drained afterwards and not counted.
  const windowEndId = await newestLogId(env.sql);
  const windowMs = performance.now() - windowStart;
  const results = await outcomes;
  // Every stream has its 201: the server answers only once its lines are stored.
  const endId = await newestLogId(env.sql);
  const drainMs = performance.now() - windowStart - windowMs;
  const sent = results.reduce((sum, result) => sum + result.sent, 0);
  const storedTotal = endId - startId;
  const rate = windowMs > 0 ? ((windowEndId - windowId) * 1000) / windowMs : Number.NaN;
  const failedStreams = results.filter((result) => result.error !== undefined);
  const offered = streams.length * streamLinesPerSecond;
  const keptUp = rate >= 0.95 * offered;
  return {
    name: `log stream ingest (${streams.length} NDJSON uploads)`,
    unit: 'lines/s',
    rate,
    p50Ms: Number.NaN,
    p99Ms: Number.NaN,
    notes:
      `offered ${integer(offered)} lines/s` +
      (keptUp
        ? ' (kept up: raise BENCH_LOG_STREAMS to find the limit)'
        : `, backlog drained in ${(drainMs / 1000).toFixed(1)} s`) +
      `; ${integer(sent)} sent, ${integer(storedTotal)} stored` +
      (sent > storedTotal ? ` (${integer(sent - storedTotal)} dropped)` : ''),
    errors: failedStreams.length,
    firstError: failedStreams[0]?.error,
    details: {
      streams: streams.length,
      offeredLinesPerSecond: offered,
      linesSent: sent,
      linesStored: storedTotal,
      linesStoredInWindow: windowEndId - windowId,
      windowMs,
      drainMs,
    },
  };
};
