import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDevice, createFleet, createOrganization } from '../../test-support/fixtures.js';
import { startTcpProxy, type TcpProxy } from '../../test-support/tcp-proxy.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { waitFor } from '../../test-support/wait-for.js';
import { type Database, openDatabase } from '../db/database.js';
import {
  type BusState,
  createNotificationBus,
  type NotificationBus,
} from '../db/notification-bus.js';
import { createApp } from '../http/create-app.js';
import { actorCacheOf, createActorResolution } from './actor-resolution.js';
import { generateApiKey, hashApiKey } from './api-key-tokens.js';

// A LISTEN connection whose network drops every packet without closing anything: only the bus's
// heartbeat can tell, and the actor cache must not go on trusting what it holds. The bus alone
// goes through the proxy; the heartbeat's interval is a fake clock the test moves.

const heartbeatMs = 1_000;

let db: Database;
let proxy: TcpProxy;
let busDb: Database;
let app: FastifyInstance;
let bus: NotificationBus;
const warnings: string[] = [];

const stateReached = (wanted: BusState): Promise<void> =>
  new Promise((resolve) => {
    if (bus.state() === wanted) return resolve();
    const stop = bus.onStateChange((state) => {
      if (state !== wanted) return;
      stop();
      resolve();
    });
  });

const cacheSize = (): number => actorCacheOf(app)?.cache.size() ?? -1;

const primedDeviceKey = async (fleetId: number, name: string): Promise<string> => {
  const device = await createDevice(db, fleetId, name);
  const key = generateApiKey();
  await db.query('INSERT INTO "api_key" ("is_of__actor", "key_hash") VALUES ($1, $2)', [
    device.actorId,
    hashApiKey(key),
  ]);
  const response = await app.inject({
    url: '/test/actor',
    headers: { authorization: `Bearer ${key}` },
  });
  expect(response.json()).toMatchObject({ kind: 'device' });
  return key;
};

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  db = await createTestDatabase();
  proxy = await startTcpProxy(db.url);
  // Its one connection is the LISTEN connection (sync() goes straight to the database), and a
  // connection attempt made while the network is silent waits for it to come back.
  busDb = openDatabase(proxy.via(db.url), { max: 1, connectTimeoutMs: 60_000 });
  const ctx = createTestContext(db);
  const actors = createActorResolution(ctx);
  app = createApp({ resolveActor: actors.resolveActor, logLevel: 'silent' });
  app.get('/test/actor', { config: { access: 'public' } }, async (request) => request.actor);
  bus = createNotificationBus(
    { connect: () => busDb.connect(), query: db.query },
    { warn: (message) => warnings.push(message), info: () => undefined },
    { retryMinMs: 10, heartbeatIntervalMs: heartbeatMs },
  );
  actors.attach(app, bus);
  await app.ready();
  await bus.start();
});

afterAll(async () => {
  vi.useRealTimers();
  await app.close();
  await bus.stop();
  await busDb.close();
  await proxy.close();
  await db.close();
});

describe('a LISTEN connection that dies silently', () => {
  it('is kept while its heartbeats come back', async () => {
    expect(bus.state()).toBe('listening');
    const pid = bus.backendPid() ?? 0;
    for (let beat = 0; beat < 3; beat += 1) {
      vi.advanceTimersByTime(heartbeatMs);
      // Its heartbeat ran (the connection is idle after it), so its notification went out ahead
      // of sync()'s, on the same connection: once sync() returns, the bus has heard it.
      await waitFor('the heartbeat to run', async () => {
        const { rows } = await db.query<{ state: string; query: string }>(
          'SELECT "state", "query" FROM pg_stat_activity WHERE "pid" = $1',
          [pid],
        );
        return rows[0]?.state === 'idle' && rows[0].query.includes('flotilla_bus_heartbeat');
      });
      await bus.sync();
    }
    vi.advanceTimersByTime(heartbeatMs);
    expect(bus.state()).toBe('listening');
    expect(bus.backendPid()).toBe(pid);
    expect(warnings).toEqual([]);
  });

  it('is declared down by its heartbeat, the actor cache empties, and both recover when the network does', async () => {
    expect(bus.state()).toBe('listening');
    const fleet = await createFleet(db, await createOrganization(db, 'silentorg'), 'silent');
    await primedDeviceKey(fleet.id, 'silent-a');
    expect(cacheSize()).toBeGreaterThan(0);
    const before = bus.backendPid();

    proxy.blackhole();
    // The first heartbeat is sent into the silence; when the next is due, it has not come back.
    vi.advanceTimersByTime(heartbeatMs);
    expect(bus.state()).toBe('listening');
    vi.advanceTimersByTime(heartbeatMs);
    expect(bus.state()).toBe('down');
    expect(cacheSize()).toBe(0);
    expect(warnings).toEqual([
      `notification bus: LISTEN connection unavailable (no heartbeat within ${heartbeatMs} ms); retrying`,
    ]);

    // The new connection waits on the silent network, and gets through once it is back.
    proxy.resume();
    await stateReached('listening');
    expect(bus.backendPid()).not.toBe(before);
    await primedDeviceKey(fleet.id, 'silent-b');
    expect(cacheSize()).toBeGreaterThan(0);
  });
});
