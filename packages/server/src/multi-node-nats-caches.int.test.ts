import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from './app-context.js';
import { createApiKey } from './features/api-keys/store-api-key.js';
import { actorCacheOf } from './infra/auth/actor-resolution.js';
import type { AppliedInvalidation } from './infra/auth/actor-cache-feed.js';
import { createNatsBus } from './infra/bus/nats-bus.js';
import { type Database, openDatabase } from './infra/db/database.js';
import type { BusState, NotificationBus } from './infra/db/notification-bus.js';
import { composeServer } from './server.js';
import * as fx from './test-support/fixtures.js';
import { type NatsServer, startNatsServer } from './test-support/nats-server.js';
import { createTestContext } from './test-support/test-context.js';
import { createTestDatabase } from './test-support/test-database.js';

// Two server processes (each its own pool) on one nats-server: the auth cache's invalidations
// travel on NATS, so a key revoked through one process is refused by the other as soon as the
// invalidation arrives, and while NATS is unreachable a process trusts no cached resolution.

type Node = { app: FastifyInstance; ctx: AppContext; pool: Database };
const scrapeToken = 'nats-scrape-token-0123456789';
const quiet = { warn: () => undefined, info: () => undefined };

let db: Database;
let nats: NatsServer;
let nodeA: Node;
let nodeB: Node;
let user: fx.UserFixture;
let adminKey: string;

const startNode = async (): Promise<Node> => {
  const pool = openDatabase(db.url, { max: 5 });
  const bus = createNatsBus(nats.url, quiet, { retryMinMs: 50, retryMaxMs: 200 });
  const ctx = createTestContext(pool, {
    bus,
    config: { prometheus: { token: scrapeToken, allowedNetworks: [], fleetLimit: 5 } },
  });
  const { app } = composeServer(ctx);
  await app.ready();
  return { app, ctx, pool };
};

const busOf = (node: Node): NotificationBus => {
  if (!node.ctx.bus) throw new Error('expected a NATS bus');
  return node.ctx.bus;
};

const stateReached = (bus: NotificationBus, wanted: BusState): Promise<void> =>
  new Promise((resolve) => {
    if (bus.state() === wanted) return resolve();
    const stop = bus.onStateChange((state) => {
      if (state === wanted) resolve(stop());
    });
  });

const whoami = (node: Node, key: string) =>
  node.app.inject({
    method: 'GET',
    url: '/user/v1/whoami',
    headers: { authorization: `Bearer ${key}` },
  });

// The samples of one metric family on `node`'s /metrics, by their labels' values.
const metricOn = async (node: Node, name: string): Promise<Map<string, number>> => {
  const response = await node.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${scrapeToken}` },
  });
  expect(response.statusCode).toBe(200);
  const family = parsePrometheusTextFormat(response.body).find((each) => each.name === name);
  return new Map(
    (family?.metrics ?? []).map((sample) => [
      Object.values(sample.labels ?? {}).join(','),
      Number('value' in sample ? sample.value : NaN),
    ]),
  );
};

const cachedOn = (node: Node, key: string): boolean =>
  actorCacheOf(node.app)?.cache.lookup(key, new Date()) !== undefined;

// Resolves once `node` has applied an invalidation from the bus naming `subject`.
const invalidationOn = (node: Node, subject: string): Promise<void> =>
  new Promise((resolve) => {
    const feed = actorCacheOf(node.app)?.feed;
    if (!feed) throw new Error('no actor cache');
    const stop = feed.onApplied((applied: AppliedInvalidation) => {
      if (applied.source === 'notification' && applied.subjects.includes(subject)) {
        stop();
        resolve();
      }
    });
  });

const keyIdOf = async (key: string): Promise<number> => {
  const { rows } = await db.query<{ id: number }>(
    `SELECT "id" FROM "api_key" WHERE "is_of__actor" = $1 ORDER BY "id" DESC LIMIT 1`,
    [user.actorId],
  );
  if (!rows[0]) throw new Error(`no key ${key.slice(0, 4)}`);
  return rows[0].id;
};

beforeAll(async () => {
  db = await createTestDatabase();
  nats = await startNatsServer();
  nodeA = await startNode();
  nodeB = await startNode();
  user = await fx.createUser(db, `keeper${randomBytes(3).toString('hex')}`);
  adminKey = await createApiKey(db, user.actorId, { name: 'admin key' });
});
afterAll(async () => {
  await nodeB?.app.close();
  await nodeA?.app.close();
  await nodeA?.pool.close();
  await nodeB?.pool.close();
  await nats?.stop();
  await db?.close();
});

describe('the auth cache on NATS', () => {
  it('refuses on one process a key revoked through the other', async () => {
    const key = await createApiKey(db, user.actorId, { name: 'revoked' });
    const id = await keyIdOf(key);
    expect((await whoami(nodeB, key)).statusCode).toBe(200);
    expect(cachedOn(nodeB, key)).toBe(true);

    const heard = invalidationOn(nodeB, `actor:${user.actorId}`);
    const deleted = await nodeA.app.inject({
      method: 'DELETE',
      url: `/v7/api_key(${id})`,
      headers: { authorization: `Bearer ${adminKey}` },
    });
    expect(deleted.statusCode).toBe(200);
    await heard;
    expect(cachedOn(nodeB, key)).toBe(false);
    expect((await whoami(nodeB, key)).statusCode).toBe(401);
  });

  it('trusts no cached key while NATS is unreachable, nor one revoked meanwhile', async () => {
    const key = await createApiKey(db, user.actorId, { name: 'outage' });
    const id = await keyIdOf(key);
    expect((await whoami(nodeB, key)).statusCode).toBe(200);
    expect(cachedOn(nodeB, key)).toBe(true);

    await nats.stop();
    await stateReached(busOf(nodeB), 'down');
    // Emptied at once, and nothing stored while down.
    expect(actorCacheOf(nodeB.app)?.cache.size()).toBe(0);
    expect((await whoami(nodeB, key)).statusCode).toBe(200);
    expect(cachedOn(nodeB, key)).toBe(false);

    // Revoked through A while nobody hears it.
    await nodeA.pool.query('DELETE FROM "api_key" WHERE "id" = $1', [id]);
    expect((await whoami(nodeB, key)).statusCode).toBe(401);

    await nats.start();
    await stateReached(busOf(nodeB), 'listening');
    await expect.poll(() => busOf(nodeB).isLive() && busOf(nodeA).isLive()).toBe(true);
    expect((await whoami(nodeB, key)).statusCode).toBe(401);
    // Caching again once live.
    expect((await whoami(nodeB, adminKey)).statusCode).toBe(200);
    expect(cachedOn(nodeB, adminKey)).toBe(true);
  }, 30_000);

  it('shows the NATS connection, its messages and reconnections in /metrics', async () => {
    const state = await metricOn(nodeB, 'flotilla_nats_connection_state');
    expect(Object.fromEntries(state)).toEqual({
      connecting: 0,
      listening: 1,
      down: 0,
      stopped: 0,
    });
    const published = await metricOn(nodeA, 'flotilla_nats_messages_total');
    expect(published.get('published')).toBeGreaterThan(0);
    const received = await metricOn(nodeB, 'flotilla_nats_messages_total');
    expect(received.get('received')).toBeGreaterThan(0);
    // The outage above: one reconnection.
    expect(
      (await metricOn(nodeB, 'flotilla_nats_reconnects_total')).get(''),
    ).toBeGreaterThanOrEqual(1);
  });
});
