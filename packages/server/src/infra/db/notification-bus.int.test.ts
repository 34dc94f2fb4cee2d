import { EventEmitter, once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test-support/test-database.js';
import type { Database } from './database.js';
import { type BusState, createNotificationBus, type NotificationBus } from './notification-bus.js';

let db: Database;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.close();
});

const recordingLog = () => {
  const lines: string[] = [];
  return {
    lines,
    log: {
      warn: (message: string) => lines.push(`warn ${message}`),
      info: (message: string) => lines.push(`info ${message}`),
    },
  };
};

// The next payload of a channel, once the channel is LISTENed.
const nextPayload = (
  bus: NotificationBus,
  channel: string,
): { ready: Promise<void>; payload: Promise<string> } => {
  let ready: Promise<void> = Promise.resolve();
  const payload = new Promise<string>((resolve) => {
    const subscription = bus.listen(channel, (text) => {
      subscription.close();
      resolve(text);
    });
    ready = subscription.ready;
  });
  return { ready, payload };
};

// A subscriber that records its payloads, and emits 'reset' with live() at each reset.
const recorder = (bus: NotificationBus, channel: string) => {
  const events = new EventEmitter();
  const payloads: string[] = [];
  const subscription = bus.listen(
    channel,
    (payload) => payloads.push(payload),
    () => events.emit('reset', subscription.live()),
  );
  const nextReset = async (): Promise<boolean> => {
    const [live] = await once(events, 'reset');
    return live === true;
  };
  return { subscription, payloads, nextReset };
};

const stateReached = (bus: NotificationBus, wanted: BusState): Promise<void> =>
  new Promise((resolve) => {
    if (bus.state() === wanted) return resolve();
    const stop = bus.onStateChange((state) => {
      if (state !== wanted) return;
      stop();
      resolve();
    });
  });

const notify = (channel: string, payload: string) =>
  db.query('SELECT pg_notify($1, $2)', [channel, payload]);

const isBackend = async (pid: number | undefined): Promise<boolean> => {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid = $1`,
    [pid ?? 0],
  );
  return rows[0]?.n === 1;
};

describe('notification bus', () => {
  it('delivers notifications of every subscribed channel over one connection', async () => {
    const { log } = recordingLog();
    const bus = createNotificationBus(db, log);
    const first = nextPayload(bus, 'bus_one');
    await bus.start();
    expect(bus.state()).toBe('listening');
    await first.ready;
    // Subscribed while listening: LISTENed on the live connection.
    const second = nextPayload(bus, 'bus_two');
    const pid = bus.backendPid();
    await notify('bus_one', 'a');
    expect(await first.payload).toBe('a');
    await second.ready;
    await notify('bus_two', 'b');
    expect(await second.payload).toBe('b');
    expect(bus.channels().sort()).toEqual(['bus_one', 'bus_two']);
    expect(await isBackend(pid)).toBe(true);
    await bus.stop();
    expect(bus.state()).toBe('stopped');
    expect(bus.backendPid()).toBeUndefined();
    // Destroyed, not pooled (the backend ends shortly after).
    await expect.poll(() => isBackend(pid)).toBe(false);
  });

  it('delivers in commit order, nothing rolled back; sync waits for all committed before it', async () => {
    const bus = createNotificationBus(db, recordingLog().log);
    const { subscription, payloads } = recorder(bus, 'bus_order');
    await bus.start();
    await subscription.ready;
    await db.transaction(async (tx) => {
      for (const payload of ['a', 'b', 'c']) {
        await tx.query(`SELECT pg_notify('bus_order', $1)`, [payload]);
      }
    });
    await db
      .transaction(async (tx) => {
        await tx.query(`SELECT pg_notify('bus_order', 'never')`);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await db.query(`SELECT pg_notify('bus_order', 'd'), pg_notify('bus_elsewhere', 'x')`);
    await bus.sync();
    expect(payloads).toEqual(['a', 'b', 'c', 'd']);
    await bus.stop();
  });

  it('resets its subscribers when the connection is lost, and again once it listens anew', async () => {
    const { log, lines } = recordingLog();
    const bus = createNotificationBus(db, log, { retryMinMs: 10 });
    const states: BusState[] = [];
    bus.onStateChange((state) => states.push(state));
    const { subscription, payloads, nextReset } = recorder(bus, 'bus_again');
    const listening = nextReset();
    await bus.start();
    expect(await listening).toBe(true);
    expect(bus.isLive()).toBe(true);
    const before = bus.backendPid();
    const lost = nextReset();
    await db.query('SELECT pg_terminate_backend($1)', [before ?? 0]);
    // Not live until it listens again: a cache must not trust what it holds meanwhile.
    expect(await lost).toBe(false);
    expect(await nextReset()).toBe(true);
    expect(subscription.live()).toBe(true);
    expect(states).toEqual(['connecting', 'listening', 'down', 'connecting', 'listening']);
    expect(bus.backendPid()).not.toBe(before);
    await notify('bus_again', 'after');
    await bus.sync();
    expect(payloads).toEqual(['after']);
    expect(lines).toEqual([
      expect.stringMatching(
        /^warn notification bus: LISTEN connection unavailable \(.+\); retrying$/,
      ),
      'info notification bus: listening again',
    ]);
    await bus.stop();
    expect(subscription.live()).toBe(false);
  });

  it('keeps retrying while the database cannot be reached, reporting the outage once', async () => {
    const { log, lines } = recordingLog();
    let refusals = 3;
    const flaky = {
      connect: () =>
        refusals-- > 0 ? Promise.reject(new Error('connection refused')) : db.connect(),
      query: db.query,
    };
    const bus = createNotificationBus(flaky, log, { retryMinMs: 1, retryMaxMs: 4 });
    await bus.start();
    expect(bus.state()).toBe('down');
    await stateReached(bus, 'listening');
    expect(refusals).toBe(-1);
    expect(lines).toEqual([
      'warn notification bus: LISTEN connection unavailable (connection refused); retrying',
      'info notification bus: listening again',
    ]);
    await bus.stop();
  });

  it('gives up a sync that is not delivered in time', async () => {
    const refusing = {
      connect: () => Promise.reject(new Error('connection refused')),
      query: db.query,
    };
    const bus = createNotificationBus(refusing, recordingLog().log, { retryMinMs: 3_600_000 });
    // Nobody holds it: nothing to deliver to, so nothing to wait for.
    await bus.sync(1);
    await bus.start();
    await expect(bus.sync(1)).rejects.toThrow(/did not deliver its sync token in time/);
    await bus.stop();
  });

  it('isolates a failing subscriber from the others', async () => {
    const { log, lines } = recordingLog();
    const bus = createNotificationBus(db, log);
    bus.listen('bus_shared', () => {
      throw new Error('subscriber bug');
    });
    const next = nextPayload(bus, 'bus_shared');
    await bus.start();
    await next.ready;
    await notify('bus_shared', 'x');
    expect(await next.payload).toBe('x');
    expect(lines).toEqual([
      expect.stringMatching(
        /^warn notification bus: a subscriber of "bus_shared" failed: .*subscriber bug/,
      ),
    ]);
    await bus.stop();
  });

  it('is open while anyone holds it', async () => {
    const bus = createNotificationBus(db, recordingLog().log);
    await bus.start();
    await bus.start();
    const pid = bus.backendPid();
    await bus.stop();
    expect(bus.state()).toBe('listening');
    expect(bus.backendPid()).toBe(pid);
    await bus.stop();
    expect(bus.state()).toBe('stopped');
    // Destroyed, not pooled (the backend ends shortly after).
    await expect.poll(() => isBackend(pid)).toBe(false);
    // One stop too many changes nothing.
    await bus.stop();
    await bus.start();
    expect(bus.state()).toBe('listening');
    await bus.stop();
    expect(bus.state()).toBe('stopped');
  });

  it('starts again after a stop, and refuses unusable channel names', async () => {
    const { log } = recordingLog();
    const bus = createNotificationBus(db, log);
    expect(() => bus.listen('Robert"; DROP TABLE x', () => undefined)).toThrow(/channel name/);
    await bus.start();
    const stopping = bus.stop();
    const restarted = bus.start();
    await Promise.all([stopping, restarted]);
    expect(bus.state()).toBe('listening');
    const next = nextPayload(bus, 'bus_restart');
    await next.ready;
    await notify('bus_restart', 'again');
    expect(await next.payload).toBe('again');
    await bus.stop();
    expect(bus.state()).toBe('stopped');
  });
});
