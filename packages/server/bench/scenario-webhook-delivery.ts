import { type ChildProcess, fork } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { tsxArgs } from './processes.js';
import type { BenchEnv, Measure, Scenario, Side } from './scenario.js';

// Webhook delivery throughput: a burst of events is committed at once (one statement through
// flotilla_emit_event, as the triggers emit them) for an endpoint whose receiver is a process of
// its own on loopback (webhook-receiver.ts, verifying every signature); measured until the
// receiver has them all: deliveries per second, and the p99 from each event to its arrival.
// The reference is the same receiver getting the same signed POSTs, one after another as the
// dispatcher sends them, from a bare loop here: what is left is the dispatcher's own work (fan-out,
// claim, record per delivery).

const burstOf = (env: BenchEnv): number => (env.options.mode === 'quick' ? 300 : 3_000);
const eventType = 'variable.changed';
const secret = `whsec_${randomBytes(32).toString('base64url')}`;

type ReceiverStats = { received: number; refused: number; lastAt: number; p99Ms: number };

let receiver: ChildProcess | undefined;
let receiverUrl = '';
let endpoint = 0;
let target: { organization: number; fleet: number } | undefined;

const ask = async <T>(type: string, answer: string): Promise<T> => {
  const child = receiver;
  if (!child) throw new Error('the webhook receiver is not running');
  const reply = new Promise<T>((resolve) => {
    const listener = (message: unknown): void => {
      if (
        typeof message === 'object' &&
        message !== null &&
        Reflect.get(message, 'type') === answer
      ) {
        child.off('message', listener);
        resolve(message as T);
      }
    };
    child.on('message', listener);
  });
  child.send({ type });
  return reply;
};

// The receiver's count once it has `count` deliveries (or the deadline passed).
const arrivals = async (count: number, deadlineMs: number): Promise<ReceiverStats> => {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const stats = await ask<ReceiverStats>('stats', 'stats');
    if (stats.received + stats.refused >= count || Date.now() > deadline) return stats;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const post = (body: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    const sent = request(
      receiverUrl,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'flotilla-delivery': randomUUID(),
          'flotilla-event': eventType,
          'flotilla-signature': `t=${timestamp},v1=${signature}`,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });

const emit = async (env: BenchEnv, count: number, round: string): Promise<number> => {
  if (!target) throw new Error('the webhook scenario was not prepared');
  const started = Date.now();
  await env.db.query(
    `SELECT flotilla_emit_event($1, $2, $3, NULL,
       jsonb_build_object('table', 'application_environment_variable', 'name', 'BENCH_' || n,
         'fleet', $3::integer, 'device', NULL, 'change', 'updated', 'round', $5::text))
       FROM generate_series(1, $4::integer) n`,
    [eventType, target.organization, target.fleet, count, round],
  );
  return started;
};

// The bare loop: the same envelopes, signed the same way, sent one at a time.
const bareLoop = async (count: number): Promise<number> => {
  if (!target) throw new Error('the webhook scenario was not prepared');
  const started = Date.now();
  const occurredAt = new Date(started).toISOString();
  for (let index = 1; index <= count; index += 1) {
    const body = JSON.stringify({
      id: randomUUID(),
      type: eventType,
      version: 1,
      occurredAt,
      organization: target.organization,
      fleet: target.fleet,
      device: null,
      data: {
        table: 'application_environment_variable',
        name: `BENCH_${index}`,
        fleet: target.fleet,
        device: null,
        change: 'updated',
      },
    });
    await post(body);
  }
  return started;
};

let rounds = 0;

export const webhookDeliveryScenario: Scenario = {
  id: 'webhook-delivery',
  rows: [
    {
      name: 'webhook deliveries to a loopback receiver verifying signatures (vs bare POST loop)',
      metric: 'opsPerSecond',
      unit: 'ops/s',
      goal: { kind: 'none' },
      goalText: 'printed',
    },
    {
      name: 'webhook delivery: p99 from event to arrival, burst of events (vs bare POST loop)',
      metric: 'p99Ms',
      unit: 'ms',
      goal: { kind: 'none' },
      goalText: 'printed',
    },
  ],
  async prepare(env) {
    const child = fork(fileURLToPath(new URL('./webhook-receiver.ts', import.meta.url)), [], {
      execArgv: tsxArgs,
      env: { ...process.env, BENCH_WEBHOOK_SECRET: secret },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    receiver = child;
    const [message] = (await once(child, 'message')) as [{ url: string }];
    receiverUrl = message.url;
    const fleet = env.seed.fleets[0]?.id;
    const { rows } = await env.db.query<{ organization: number }>(
      `SELECT "organization" FROM "application" WHERE "id" = $1`,
      [fleet],
    );
    const organization = rows[0]?.organization;
    if (fleet === undefined || organization === undefined) throw new Error('no seeded fleet');
    target = { organization, fleet };
    const inserted = await env.db.query<{ id: number }>(
      `INSERT INTO "webhook_endpoint" ("organization", "url", "events", "secret", "description")
       VALUES ($1, $2, ARRAY[$3], $4, 'bench receiver') RETURNING "id"`,
      [organization, receiverUrl, eventType, secret],
    );
    endpoint = inserted.rows[0]?.id ?? 0;
  },
  async cleanUp(env) {
    if (endpoint) await env.db.query(`DELETE FROM "webhook_endpoint" WHERE "id" = $1`, [endpoint]);
    endpoint = 0;
    if (receiver && receiver.exitCode === null) {
      const exited = once(receiver, 'exit');
      receiver.kill('SIGTERM');
      await exited;
    }
    receiver = undefined;
  },
  async measure(side: Side, env: BenchEnv): Promise<Measure> {
    const count = burstOf(env);
    rounds += 1;
    await ask('reset', 'reset-done');
    const started =
      side === 'flotilla' ? await emit(env, count, `${side}-${rounds}`) : await bareLoop(count);
    const stats = await arrivals(count, 120_000);
    const elapsed = Math.max(1, stats.lastAt - started);
    const missing = count - stats.received;
    return {
      metrics: {
        opsPerSecond: (stats.received / elapsed) * 1000,
        p50Ms: Number.NaN,
        p99Ms: stats.p99Ms,
      },
      requests: count,
      errors: missing,
      firstError:
        missing === 0
          ? undefined
          : `${missing} of ${count} deliveries did not arrive (${stats.refused} refused signatures)`,
    };
  },
};
