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
      warn: (_details: object, message: string) => lines.push(`warn ${message}`),
      info: (_details: object, message: string) => lines.push(`info ${message}`),
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
    const { rows } = await db.query<{ listeners: number }>(
      `SELECT count(*) AS listeners FROM pg_stat_activity
        WHERE datname = current_database() AND pid = $1`,
      [pid ?? 0],
    );
    expect(rows[0]?.listeners).toBe(1);
    await bus.stop();
    expect(bus.state()).toBe('stopped');
    expect(bus.backendPid()).toBeUndefined();
  });

  it('reports losing its connection and listens again on a new one', async () => {
    const { log, lines } = recordingLog();
    const bus = createNotificationBus(db, log, { retryMinMs: 10 });
    const states: BusState[] = [];
    bus.onStateChange((state) => states.push(state));
    const subscription = bus.listen('bus_again', () => undefined);
    await bus.start();
    await subscription.ready;
    const before = bus.backendPid();
    const back = stateReached(bus, 'down').then(() => stateReached(bus, 'listening'));
    await db.query('SELECT pg_terminate_backend($1)', [before ?? 0]);
    await back;
    expect(states).toEqual(['connecting', 'listening', 'down', 'connecting', 'listening']);
    expect(bus.backendPid()).not.toBe(before);
    const again = nextPayload(bus, 'bus_again');
    await again.ready;
    await notify('bus_again', 'after');
    expect(await again.payload).toBe('after');
    expect(lines).toContain('warn notification bus: LISTEN connection unavailable; retrying');
    expect(lines).toContain('info notification bus: listening again');
    await bus.stop();
  });

  it('keeps retrying while the database cannot be reached', async () => {
    const { log } = recordingLog();
    let refusals = 3;
    const flaky = {
      connect: () =>
        refusals-- > 0 ? Promise.reject(new Error('connection refused')) : db.connect(),
    };
    const bus = createNotificationBus(flaky, log, { retryMinMs: 1, retryMaxMs: 4 });
    await bus.start();
    expect(bus.state()).toBe('down');
    await stateReached(bus, 'listening');
    expect(refusals).toBe(-1);
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
    expect(lines).toContain('warn notification bus: a subscriber failed');
    await bus.stop();
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
