import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { buildServer } from '../../server.js';
import {
  createRowCounter,
  createFuzzWorld,
  type FuzzWorld,
} from '../../test-support/fuzz/fuzz-world.js';
import { createRandom } from '../../test-support/fuzz/prng.js';
import {
  type FuzzRequest,
  requestFor,
  type Route,
} from '../../test-support/fuzz/route-requests.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import type { Database } from '../db/database.js';

// Seeded fuzz of every registered route: hostile paths, queries and bodies from several
// callers. Replay a failure with FLOTILLA_FUZZ_SEED=<seed>; FLOTILLA_FUZZ_REQUESTS sets how many
// requests it sends (bounded by count, never by the clock; about 30 s on a busy 2-core machine).
const seed = Number(process.env.FLOTILLA_FUZZ_SEED ?? 20_261_124);
const requestCount = Number(process.env.FLOTILLA_FUZZ_REQUESTS ?? 2_000);

// Answers in the 5xx range that are designed, not faults: the device is not connected (503)
// and supervisor calls not implemented (501).
const designedServerAnswers = [501, 503];

// Refused logins record the attempt (rate limiting); the server's background work writes the
// others whenever it runs, so their counts may change around a refused request: device logs and
// contact times are flushed every second (a contact moves a device into another status-tally
// row), a deleted fleet's repository is removed from a queue, metric samples are pruned.
const tablesWrittenOnRefusal = [
  'rate_limit_hit',
  'device_log',
  'device_status_tally',
  'fleet_repository_removal',
  'device_metric_sample',
];

// PostgreSQL's and Fastify's own wording: 4xx bodies say the problem in ours.
const internals =
  /operator does not exist|invalid input syntax|out of range for type|violates|relation "|syntax error at|FST_ERR|could not determine/i;

const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const streamRoute = '/events/v1/stream';

type Failure = { index: number; request: string; problem: string };

const describeRequest = (index: number, caller: string, request: FuzzRequest): string =>
  `#${index} as ${caller}: ${request.method} ${request.url.slice(0, 300)}${
    request.payload === undefined ? '' : ` body ${request.payload.slice(0, 200)}`
  }`;

describe('hostile requests to every route', () => {
  let db: Database;
  let ctx: AppContext;
  let app: FastifyInstance;
  let world: FuzzWorld;
  const routes: Route[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    ctx = createTestContext(db, { config: { logLevel: 'silent', loginRateLimitPerMinute: 10 } });
    app = buildServer(ctx, {
      onRoute: (route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods) {
          // HEAD answers from the GET handler; OPTIONS is CORS. The event stream keeps its
          // answer open by design (server-sent events): its refusals are tested on their own
          // (event-stream.int.test.ts).
          if (method === 'HEAD' || method === 'OPTIONS' || route.url === streamRoute) continue;
          routes.push({ method, url: route.url });
        }
      },
    });
    await app.ready();
    world = await createFuzzWorld(ctx);
  });

  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('answers without a 5xx, a partial write or a hidden value', async () => {
    console.info(
      `hostile-requests fuzz: seed ${seed}, ${requestCount} requests, ${routes.length} routes`,
    );
    expect(routes.length).toBeGreaterThan(30);
    const random = createRandom(seed);
    const odataRoutes = routes.filter((route) => route.url.startsWith('/v7/'));
    const countRows = await createRowCounter(db, tablesWrittenOnRefusal);
    const failures: Failure[] = [];
    // Answers per route and status, printed so a reader sees how deep the requests got.
    const tally = new Map<string, Map<number, number>>();
    const fail = (index: number, request: string, problem: string): void => {
      if (failures.length < 25) failures.push({ index, request, problem });
    };
    for (let index = 0; index < requestCount; index++) {
      // The /v7 engine takes any resource and query: it gets a larger share.
      const route = random.pick(random.chance(0.4) ? odataRoutes : routes);
      const caller = random.pick(world.callers);
      const request = requestFor(random, route, world, ctx.model, caller.authorization);
      const label = describeRequest(index, caller.name, request);
      const isWrite = writeMethods.has(request.method);
      const before = isWrite ? await countRows() : undefined;
      const response = await app.inject({
        method: request.method,
        url: request.url,
        headers: request.headers,
        ...(request.payload === undefined ? {} : { payload: request.payload }),
      });
      const status = response.statusCode;
      const key = `${route.method} ${route.url}`;
      const counts = tally.get(key) ?? new Map<number, number>();
      counts.set(status, (counts.get(status) ?? 0) + 1);
      tally.set(key, counts);
      if (status >= 500 && !designedServerAnswers.includes(status)) {
        fail(index, label, `${status}: ${response.body.slice(0, 300)}`);
      }
      if (status >= 400 && status < 500 && internals.test(response.body)) {
        fail(
          index,
          label,
          `${status} answered in the words of a library: ${response.body.slice(0, 300)}`,
        );
      }
      const leaked = world.secrets.find((secret) => response.body.includes(secret));
      if (leaked) fail(index, label, `answer contains the hidden value ${leaked.slice(0, 12)}...`);
      if (before && (status < 200 || status >= 300)) {
        const after = await countRows();
        const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
        if (changed.length > 0)
          fail(index, label, `${status} but rows changed in ${changed.join(', ')}`);
      }
    }
    // FLOTILLA_FUZZ_REPORT=1 prints it on success too.
    if (failures.length > 0 || process.env.FLOTILLA_FUZZ_REPORT) {
      console.info(
        [...tally]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(
            ([key, counts]) =>
              `${key}: ${[...counts].map(([code, n]) => `${code}×${n}`).join(' ')}`,
          )
          .join('\n'),
      );
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
