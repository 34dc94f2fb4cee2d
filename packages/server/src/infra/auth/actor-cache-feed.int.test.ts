import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, createFleet, createOrganization } from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { type Database, openDatabase } from '../db/database.js';
import {
  type BusState,
  createNotificationBus,
  type NotificationBus,
} from '../db/notification-bus.js';
import { createApp } from '../http/create-app.js';
import type { Actor } from './actor.js';
import { type AppliedInvalidation, subjectsOf } from './actor-cache-feed.js';
import { actorCacheOf, createActorResolution } from './actor-resolution.js';
import { generateApiKey, hashApiKey } from './api-key-tokens.js';

// The feed's two sources and its guard: this process's own changes (notices, before the
// statement returns), other processes' (notifications), and standing aside while the LISTEN
// connection is down. The app is built by hand so the test owns its bus.

let db: Database;
let otherPool: Database;
let app: FastifyInstance;
let bus: NotificationBus;
let fleet: { id: number; actorId: number };
const applied: AppliedInvalidation[] = [];

const ask = async (token: string): Promise<Actor | number> => {
  const response = await app.inject({
    url: '/test/actor',
    headers: { authorization: `Bearer ${token}` },
  });
  return response.statusCode === 200 ? response.json<Actor>() : response.statusCode;
};

const cache = () => {
  const attached = actorCacheOf(app);
  if (!attached) throw new Error('no actor cache');
  return attached.cache;
};

const deviceKey = async (): Promise<{ key: string; actorId: number }> => {
  const device = await createDevice(db, fleet.id, `feed-${generateApiKey().slice(0, 8)}`);
  const key = generateApiKey();
  await db.query('INSERT INTO "api_key" ("is_of__actor", "key_hash") VALUES ($1, $2)', [
    device.actorId,
    hashApiKey(key),
  ]);
  return { key, actorId: device.actorId };
};

const primed = async (token: string): Promise<void> => {
  expect(await ask(token)).toMatchObject({ kind: 'device' });
  expect(cache().lookup(token, new Date())).toBeDefined();
};

const stateReached = (wanted: BusState): Promise<void> =>
  new Promise((resolve) => {
    if (bus.state() === wanted) return resolve();
    const stop = bus.onStateChange((state) => {
      if (state !== wanted) return;
      stop();
      resolve();
    });
  });

beforeAll(async () => {
  db = await createTestDatabase();
  otherPool = openDatabase(db.url, { max: 2 });
  const ctx = createTestContext(db);
  const actors = createActorResolution(ctx);
  app = createApp({ resolveActor: actors.resolveActor, logLevel: 'silent' });
  app.get('/test/actor', { config: { access: 'public' } }, async (request) => request.actor);
  // Reconnecting only when the test says so.
  bus = createNotificationBus(db, app.log, { retryMinMs: 3_600_000 });
  actors.attach(app, bus);
  await app.ready();
  await bus.start();
  actorCacheOf(app)?.feed.onApplied((invalidation) => applied.push(invalidation));
  fleet = await createFleet(db, await createOrganization(db, 'feedorg'), 'feed');
});

afterAll(async () => {
  await app.close();
  await bus.stop();
  await otherPool.close();
  await db.close();
});

describe('actor cache feed', () => {
  it("applies this process's own change before the statement returns", async () => {
    const { key, actorId } = await deviceKey();
    await primed(key);
    applied.length = 0;
    const notified = new Promise<void>((resolve) => {
      const stop = actorCacheOf(app)?.feed.onApplied(({ subjects, source }) => {
        if (source !== 'notification' || !subjects.includes(`actor:${actorId}`)) return;
        stop?.();
        resolve();
      });
    });
    await db.query('DELETE FROM "api_key" WHERE "key_hash" = $1', [hashApiKey(key)]);
    // (The notification may or may not have arrived too by now; the notice surely has.)
    expect(applied.filter(({ source }) => source === 'notice')).toEqual([
      { subjects: [`actor:${actorId}`], source: 'notice' },
    ]);
    // No waiting for the notification: the very next request is refused.
    expect(await ask(key)).toBe(401);
    // It comes all the same, from PostgreSQL, after the commit.
    await notified;
  });

  it('stands aside while the LISTEN connection is down, and starts empty when back', async () => {
    const { key, actorId } = await deviceKey();
    await primed(key);
    const down = stateReached('down');
    await otherPool.query('SELECT pg_terminate_backend($1)', [bus.backendPid() ?? 0]);
    await down;
    expect(cache().size()).toBe(0);
    // Nothing reaches this process now: a change elsewhere would go unheard.
    await otherPool.query('UPDATE "api_key" SET "expiry_date" = now() WHERE "is_of__actor" = $1', [
      actorId,
    ]);
    expect(await ask(key)).toBe(401);
    const { key: fresh } = await deviceKey();
    expect(await ask(fresh)).toMatchObject({ kind: 'device' });
    expect(cache().size()).toBe(0);
    await bus.stop();
    await bus.start();
    expect(bus.state()).toBe('listening');
    await primed(fresh);
  });

  it('drops everything on a payload it does not understand', async () => {
    const { key } = await deviceKey();
    await primed(key);
    const heard = new Promise<void>((resolve) => {
      const stop = actorCacheOf(app)?.feed.onApplied(({ source }) => {
        if (source !== 'notification') return;
        stop?.();
        resolve();
      });
    });
    await otherPool.query(`SELECT pg_notify('flotilla_auth', 'device:12;DROP')`);
    await heard;
    expect(cache().size()).toBe(0);
  });

  it('reads subjects strictly', () => {
    expect(subjectsOf('user:1')).toEqual(['user:1']);
    expect(subjectsOf('actor:7,user:2')).toEqual(['actor:7', 'user:2']);
    expect(subjectsOf('*')).toEqual(['*']);
    for (const odd of ['', 'user:', 'user:x', 'device:3', 'actor:1,', ' actor:1']) {
      expect(subjectsOf(odd), odd).toEqual(['*']);
    }
  });
});
