import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { createHistogram, percentileMillis, recordMillis } from './histogram.js';

// The webhook bench's receiver, a process of its own (forked by scenario-webhook-delivery.ts):
// verifies each delivery's signature as docs/EVENTS.md tells a receiver to (HMAC-SHA256 of
// "<t>.<body>" with the endpoint's secret, a recent timestamp), answers 200, and records the time
// from the event (its occurredAt) to its arrival. Over IPC: "reset" starts a count, "stats"
// answers it.

const secret = process.env.BENCH_WEBHOOK_SECRET ?? '';
const toleranceSeconds = 300;

type Counts = { received: number; refused: number; lastAt: number };
let counts: Counts = { received: 0, refused: 0, lastAt: 0 };
let latency = createHistogram();

const verified = (header: string | undefined, body: string): boolean => {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match?.[1] || !match[2]) return false;
  const timestamp = Number(match[1]);
  if (Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2], 'hex'));
};

const occurredAtOf = (body: string): number => {
  const parsed: unknown = JSON.parse(body);
  const at = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, 'occurredAt') : 0;
  return typeof at === 'string' ? Date.parse(at) : Number.NaN;
};

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const header = request.headers['flotilla-signature'];
    if (!verified(typeof header === 'string' ? header : undefined, body)) {
      counts.refused += 1;
      response.statusCode = 401;
      response.end('Bad signature');
      return;
    }
    const now = Date.now();
    counts.received += 1;
    counts.lastAt = now;
    const occurredAt = occurredAtOf(body);
    if (Number.isFinite(occurredAt)) recordMillis(latency, Math.max(0, now - occurredAt));
    response.statusCode = 200;
    response.end('ok');
  });
});

process.on('message', (message: unknown) => {
  const type = typeof message === 'object' && message !== null ? Reflect.get(message, 'type') : '';
  if (type === 'reset') {
    counts = { received: 0, refused: 0, lastAt: 0 };
    latency = createHistogram();
    process.send?.({ type: 'reset-done' });
  } else if (type === 'stats') {
    process.send?.({
      type: 'stats',
      ...counts,
      p50Ms: percentileMillis(latency, 50),
      p99Ms: percentileMillis(latency, 99),
    });
  }
});
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.send?.({ type: 'listening', url: `http://127.0.0.1:${port}/hook` });
});
