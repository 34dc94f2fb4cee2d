import { once } from 'node:events';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createHistogram, type Histogram, percentileMillis, recordMillis } from './histogram.js';
import type { LogStreamSpec } from './load-jobs.js';
import type { Measure, Window } from './scenario.js';

// Long-lived NDJSON log uploads, paced, optionally each with a live-tail subscriber of the same
// device. Every line carries the moment it was written (t=<performance.now()>), so a subscriber
// in this same process measures ingest → subscriber latency on one clock. The ingest rate is what
// the database stored during the window: the growth of device_log's identity column (retention
// deletes rows, ids are never reused).

const tickMs = 50;
const stampPattern = /t=(\d+(?:\.\d+)?)/;

const logLines = (count: number, serial: number, stamp: number): string => {
  let text = '';
  for (let i = 0; i < count; i++) {
    const line = serial + i;
    text += `${JSON.stringify({
      message: `[main] GET /api/v1/sensors/${line % 64} 200 - request ${line} t=${stamp.toFixed(3)}`,
      timestamp: Date.now(),
      isSystem: false,
      isStdErr: line % 25 === 0,
      serviceId: 1,
    })}\n`;
  }
  return text;
};

type StreamOutcome = { sent: number; error: string | undefined };

const answerOf = (request: http.ClientRequest): Promise<number> =>
  new Promise<number>((resolve, reject) => {
    request.on('response', (incoming) => {
      incoming.resume();
      incoming.on('end', () => resolve(incoming.statusCode ?? 0));
    });
    request.on('error', reject);
  });

const streamLogs = async (
  baseUrl: string,
  spec: LogStreamSpec,
  until: number,
): Promise<StreamOutcome> => {
  const request = http.request(new URL(spec.path, baseUrl), {
    method: 'POST',
    headers: { ...spec.headers, 'content-type': 'application/x-ndjson' },
  });
  let answered = false;
  const answer = answerOf(request).finally(() => (answered = true));
  answer.catch(() => undefined);
  let sent = 0;
  let owed = 0;
  let due = performance.now();
  try {
    // An early answer (401...) ends the upload.
    while (performance.now() < until && !answered) {
      owed += (spec.linesPerSecond * tickMs) / 1000;
      const count = Math.floor(owed);
      owed -= count;
      if (count > 0) {
        const more = request.write(logLines(count, sent, performance.now()));
        sent += count;
        if (!more) await once(request, 'drain');
      }
      due += tickMs;
      const wait = due - performance.now();
      // Behind schedule (back-pressure): carry on, never burst to catch up.
      if (wait > 0) await sleep(wait);
      else due = performance.now();
    }
    request.end();
    const status = await answer;
    return { sent, error: status === 201 ? undefined : `${spec.path} answered ${status}` };
  } catch (error) {
    request.destroy();
    return { sent, error: error instanceof Error ? error.message : String(error) };
  }
};

type Tail = { close(): void; failure(): string | undefined };

// A subscriber: records the latency of every line stamped inside the window. The answer's
// headers may only come with its first line (a server sends them with the first write), so
// nothing waits for them.
const openTail = (
  baseUrl: string,
  tail: NonNullable<LogStreamSpec['tail']>,
  histogram: Histogram,
  window: { start: number; end: number },
): Tail => {
  let failure: string | undefined;
  const request = http.get(new URL(tail.path, baseUrl), { headers: tail.headers });
  // Closing the subscription at the end aborts the request: expected.
  request.on('error', () => undefined);
  request.on('response', (response) => {
    response.on('error', () => undefined);
    if (response.statusCode !== 200) {
      failure = `${tail.path} answered ${response.statusCode ?? '?'}`;
      response.resume();
      return;
    }
    let rest = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      const now = performance.now();
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const stamp = stampPattern.exec(line)?.[1];
        if (stamp === undefined) continue;
        const sentAt = Number(stamp);
        if (sentAt >= window.start && sentAt < window.end) recordMillis(histogram, now - sentAt);
      }
    });
  });
  return { close: () => request.destroy(), failure: () => failure };
};

// Subscriptions are opened before the uploads start; this long is left for the servers to set
// them up (the warm-up follows, unrecorded, before the window).
const subscribeMs = 500;

const newestLogId = async (client: pg.Client): Promise<number> => {
  const { rows } = await client.query<{ id: string }>(
    'SELECT coalesce(max("id"), 0)::text AS "id" FROM "device_log"',
  );
  return Number(rows[0]?.id ?? 0);
};

export const runLogStreams = async (
  job: { baseUrl: string; databaseUrl: string; streams: LogStreamSpec[] },
  window: Window,
): Promise<Measure> => {
  const client = new pg.Client({ connectionString: job.databaseUrl });
  await client.connect();
  const tails: Tail[] = [];
  try {
    const tailed = job.streams.some((spec) => spec.tail !== undefined);
    const began = performance.now() + (tailed ? subscribeMs : 0);
    const windowStart = began + window.warmupMs;
    const windowEnd = windowStart + window.durationMs;
    const latencies = createHistogram();
    for (const spec of job.streams) {
      if (spec.tail) {
        tails.push(
          openTail(spec.tail.baseUrl ?? job.baseUrl, spec.tail, latencies, {
            start: windowStart,
            end: windowEnd,
          }),
        );
      }
    }
    if (tailed) await sleep(subscribeMs);
    const until = windowEnd;
    const outcomes = Promise.all(job.streams.map((spec) => streamLogs(job.baseUrl, spec, until)));
    await sleep(Math.max(0, windowStart - performance.now()));
    const startId = await newestLogId(client);
    const measuredFrom = performance.now();
    await sleep(Math.max(0, windowEnd - measuredFrom));
    const endId = await newestLogId(client);
    const measuredMs = performance.now() - measuredFrom;
    const results = await outcomes;
    // Lines still travelling to the subscribers when the uploads end.
    await sleep(300);
    const failures = [
      ...results.map((result) => result.error),
      ...tails.map((tail) => tail.failure()),
    ].filter((error): error is string => error !== undefined);
    const offered = job.streams.reduce((sum, spec) => sum + spec.linesPerSecond, 0);
    return {
      metrics: {
        opsPerSecond: measuredMs > 0 ? ((endId - startId) * 1000) / measuredMs : Number.NaN,
        p50Ms: Number.NaN,
        p99Ms: Number.NaN,
        offeredLinesPerSecond: offered,
        linesSent: results.reduce((sum, result) => sum + result.sent, 0),
        tailLines: latencies.total,
        tailP50Ms: percentileMillis(latencies, 50),
        tailP99Ms: percentileMillis(latencies, 99),
      },
      requests: results.length,
      errors: failures.length,
      firstError: failures[0],
    };
  } finally {
    for (const tail of tails) tail.close();
    await client.end();
  }
};
