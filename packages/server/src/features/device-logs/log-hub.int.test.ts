import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../infra/db/database.js';
import {
  type BusState,
  createNotificationBus,
  type NotificationBus,
} from '../../infra/db/notification-bus.js';
import { startTcpProxy, type TcpProxy } from '../../test-support/tcp-proxy.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import type { IngestedLine } from './log-line.js';
import { createLogHub, type LiveBatch, type LogHub } from './log-hub.js';
import { logChannel } from './log-store.js';

const origin = 1234;
const quiet = { warn: () => undefined, info: () => undefined };

const stateReached = (bus: NotificationBus, wanted: BusState): Promise<void> =>
  new Promise((resolve) => {
    if (bus.state() === wanted) return resolve();
    const stop = bus.onStateChange((state) => {
      if (state !== wanted) return;
      stop();
      resolve();
    });
  });

const line = (deviceId: number, seq: number, message: string): IngestedLine => ({
  deviceId,
  createdAt: 1000 + seq,
  seq,
  line: { message, timestamp: seq, isSystem: false, isStdErr: false, serviceId: null },
});

// A listener that records what it gets and wakes whoever waits for its next signal.
const recorder = () => {
  const batches: LiveBatch[] = [];
  let stored = 0;
  let wake: (() => void) | undefined;
  return {
    batches,
    stored: () => stored,
    listener: {
      lines: (batch: LiveBatch) => batches.push(batch),
      relayed: () => undefined,
      stored: () => {
        stored += 1;
        wake?.();
      },
    },
    // Resolves once `stored` reaches `target`.
    storedReaches: (target: number): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => {
          if (stored < target) return;
          wake = undefined;
          resolve();
        };
        wake = check;
        check();
      }),
  };
};

describe('the log hub', () => {
  let direct: Database;
  let proxy: TcpProxy;
  let served: Database;
  let bus: NotificationBus;
  let hub: LogHub;

  beforeAll(async () => {
    direct = await createTestDatabase();
    proxy = await startTcpProxy(direct.url);
    served = openDatabase(proxy.via(direct.url), { max: 2, connectTimeoutMs: 2_000 });
    bus = createNotificationBus(served, quiet, { retryMinMs: 50, retryMaxMs: 500 });
    hub = createLogHub(bus, origin);
    await bus.start();
  });

  afterAll(async () => {
    hub?.close();
    await bus?.stop();
    await served?.close();
    await proxy?.close();
    await direct?.close();
  });

  const notify = (payload: string) =>
    direct.query('SELECT pg_notify($1, $2)', [logChannel, payload]);

  it("hands this process's lines to the device's listeners, the NDJSON built once", () => {
    const own = recorder();
    const neighbour = recorder();
    const stopOwn = hub.subscribe(7, own.listener);
    const stopNeighbour = hub.subscribe(8, neighbour.listener);
    hub.publish(7, [line(7, 1, 'one'), line(7, 2, 'two')]);
    expect(own.batches).toHaveLength(1);
    expect(neighbour.batches).toHaveLength(0);
    const text = own.batches[0]?.text();
    expect(text).toBe(
      '{"message":"one","createdAt":1001,"timestamp":1,"isSystem":false,"isStdErr":false}\n' +
        '{"message":"two","createdAt":1002,"timestamp":2,"isSystem":false,"isStdErr":false}\n',
    );
    expect(own.batches[0]?.text()).toBe(text);
    stopOwn();
    hub.publish(7, [line(7, 3, 'three')]);
    expect(own.batches).toHaveLength(1);
    stopNeighbour();
  });

  it("signals other processes' stored lines, ignores its own, and catches up after losing the database", async () => {
    const listening = recorder();
    const unsubscribe = hub.subscribe(42, listening.listener);
    await stateReached(bus, 'listening');
    // Its own notification is ignored; another device's barrier, delivered after both, shows
    // that only the other process's counted.
    const barrier = recorder();
    const stopBarrier = hub.subscribe(43, barrier.listener);
    await notify(`${origin}:42`);
    await notify('999:41,42');
    await notify('999:43');
    await barrier.storedReaches(1);
    expect(listening.stored()).toBe(1);
    stopBarrier();

    proxy.cut();
    await stateReached(bus, 'down');
    // Lines stored meanwhile are not announced to this process: listening again, it reads.
    await notify('999:42');
    const before = listening.stored();
    proxy.restore();
    await stateReached(bus, 'listening');
    await listening.storedReaches(before + 1);
    await notify('999:42');
    await listening.storedReaches(before + 2);
    unsubscribe();
  }, 60_000);
});
