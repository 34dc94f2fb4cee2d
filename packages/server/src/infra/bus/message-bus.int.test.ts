import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/database.js';
import {
  type BusState,
  createNotificationBus,
  type NotificationBus,
} from '../db/notification-bus.js';
import { type NatsServer, startNatsServer } from '../../test-support/nats-server.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createNatsBus } from './nats-bus.js';

const quiet = { warn: () => undefined, info: () => undefined };
const fast = { retryMinMs: 50, retryMaxMs: 200, heartbeatIntervalMs: 500 };

const stateReached = (bus: NotificationBus, wanted: BusState): Promise<void> =>
  new Promise((resolve) => {
    if (bus.state() === wanted) return resolve();
    const stop = bus.onStateChange((state) => {
      if (state !== wanted) return;
      stop();
      resolve();
    });
  });

// Collects a channel's payloads and resets, and wakes whoever waits for a count of either.
const collector = () => {
  const payloads: string[] = [];
  let resets = 0;
  const waiters = new Set<{ ready(): boolean; wake(): void }>();
  const check = (): void => {
    for (const waiter of [...waiters]) {
      if (!waiter.ready()) continue;
      waiters.delete(waiter);
      waiter.wake();
    }
  };
  const until = (ready: () => boolean): Promise<void> =>
    new Promise((resolve) => {
      waiters.add({ ready, wake: resolve });
      check();
    });
  return {
    payloads,
    resets: () => resets,
    onPayload: (payload: string) => {
      payloads.push(payload);
      check();
    },
    onReset: () => {
      resets += 1;
      check();
    },
    has: (count: number): Promise<void> => until(() => payloads.length >= count),
    resetsReach: (count: number): Promise<void> => until(() => resets >= count),
  };
};

let db: Database;
let nats: NatsServer;
const pools: Database[] = [];
beforeAll(async () => {
  db = await createTestDatabase();
  nats = await startNatsServer();
});
afterAll(async () => {
  for (const pool of pools) await pool.close();
  await nats?.stop();
  await db?.close();
});

// Two processes' buses on one engine.
const engines: Record<'postgres' | 'nats', () => NotificationBus> = {
  postgres: () => {
    const pool = openDatabase(db.url, { max: 2 });
    pools.push(pool);
    return createNotificationBus(pool, quiet, fast);
  },
  nats: () => createNatsBus(nats.url, quiet, fast),
};

describe.each(['postgres', 'nats'] as const)('the message bus on %s', (engine) => {
  let one: NotificationBus;
  let other: NotificationBus;
  beforeAll(async () => {
    one = engines[engine]();
    other = engines[engine]();
    await one.start();
    await other.start();
  });
  afterAll(async () => {
    await one?.stop();
    await other?.stop();
  });

  it('says which engine it is', () => {
    expect(one.engine).toBe(engine);
    expect(one.state()).toBe('listening');
  });

  // Each channel the server sends on the bus: the device-log fan-out, a cloudlink node's
  // channel, the webhook dispatchers' wake-up, the sync barrier's own channel.
  it.each(['device_logs', 'cloudlink_0a1b2c3d', 'flotilla_webhooks', 'flotilla_bus_sync'])(
    'delivers %s to every process subscribed, in the order published',
    async (channel) => {
      const there = collector();
      const here = collector();
      const subscription = other.listen(channel, there.onPayload, there.onReset);
      const own = one.listen(channel, here.onPayload, here.onReset);
      await Promise.all([subscription.ready, own.ready]);
      expect(subscription.live()).toBe(true);
      expect(there.resets()).toBe(1);
      for (const payload of ['1', '2', '3']) await one.publish(channel, payload);
      await there.has(3);
      await here.has(3);
      expect(there.payloads).toEqual(['1', '2', '3']);
      expect(here.payloads).toEqual(['1', '2', '3']);
      subscription.close();
      own.close();
    },
  );

  it("sync() returns once the process's own publications are delivered", async () => {
    const heard = collector();
    const subscription = one.listen('bus_sync_test', heard.onPayload);
    await subscription.ready;
    for (let index = 0; index < 50; index += 1) await one.publish('bus_sync_test', `${index}`);
    await one.sync();
    expect(heard.payloads).toHaveLength(50);
    subscription.close();
  });

  it('stops delivering to a closed subscription and refuses unusable channel names', async () => {
    const closed = collector();
    const open = collector();
    const gone = other.listen('bus_close_test', closed.onPayload);
    const kept = other.listen('bus_close_test', open.onPayload);
    await Promise.all([gone.ready, kept.ready]);
    gone.close();
    await one.publish('bus_close_test', 'after');
    await open.has(1);
    expect(closed.payloads).toEqual([]);
    kept.close();
    expect(() => one.listen('Bad.Name', () => undefined)).toThrow('Unusable channel name');
  });
});

describe('the NATS bus while NATS is unreachable', () => {
  it('resets its subscribers, reconnects when NATS is back, and is live again', async () => {
    const publisher = createNatsBus(nats.url, quiet, fast);
    const subscriber = createNatsBus(nats.url, quiet, fast);
    await publisher.start();
    await subscriber.start();
    const heard = collector();
    const subscription = subscriber.listen('bus_outage_test', heard.onPayload, heard.onReset);
    await subscription.ready;
    expect(heard.resets()).toBe(1);

    await nats.stop();
    await stateReached(subscriber, 'down');
    // The subscriber was told: what it derived from messages may miss some from now on.
    expect(heard.resets()).toBe(2);
    expect(subscription.live()).toBe(false);
    expect(subscriber.isLive()).toBe(false);

    await nats.start();
    await stateReached(subscriber, 'listening');
    await stateReached(publisher, 'listening');
    // Its subscription back on the new connection: told again, and live.
    await heard.resetsReach(3);
    expect(subscription.live()).toBe(true);
    await publisher.publish('bus_outage_test', 'again');
    await heard.has(1);
    expect(heard.payloads).toEqual(['again']);
    expect(subscriber.isLive()).toBe(true);
    subscription.close();
    await publisher.stop();
    await subscriber.stop();
    expect(subscriber.state()).toBe('stopped');
  }, 30_000);

  it('stops at once while NATS is unreachable', async () => {
    const bus = createNatsBus(nats.url, quiet, fast);
    await bus.start();
    await nats.stop();
    await stateReached(bus, 'down');
    await bus.stop();
    expect(bus.state()).toBe('stopped');
    await nats.start();
  }, 30_000);

  it('starts down when NATS is not there, and connects once it is', async () => {
    await nats.stop();
    const bus = createNatsBus(nats.url, quiet, fast);
    const heard = collector();
    const subscription = bus.listen('bus_late_test', heard.onPayload, heard.onReset);
    await bus.start();
    expect(bus.state()).toBe('down');
    await expect(bus.publish('bus_late_test', 'lost')).rejects.toThrow('not connected');
    await nats.start();
    await subscription.ready;
    expect(bus.state()).toBe('listening');
    await bus.publish('bus_late_test', 'kept');
    await heard.has(1);
    expect(heard.payloads).toEqual(['kept']);
    subscription.close();
    await bus.stop();
  }, 30_000);
});
