import { EventEmitter, once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test-support/test-database.js';
import type { Database } from './database.js';
import { createNotificationFeed, type FeedSubscriber } from './notification-feed.js';

// What a subscriber was told: the payloads, and a 'reset' event per reset.
const recorder = () => {
  const events = new EventEmitter();
  const payloads: string[] = [];
  const subscriber: FeedSubscriber = {
    onNotification: (payload) => payloads.push(payload),
    onReset: () => events.emit('reset'),
  };
  return { subscriber, payloads, nextReset: () => once(events, 'reset') };
};

describe('notification feed', () => {
  let db: Database;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  // Backends of this database listening to anything.
  const listeners = async (): Promise<number[]> =>
    (
      await db.query<{ pid: number }>(
        `SELECT "pid" FROM pg_stat_activity WHERE "datname" = current_database() AND "query" LIKE 'LISTEN%'`,
      )
    ).rows.map((row) => row.pid);

  const waitFor = async (what: string, check: () => Promise<boolean>): Promise<void> => {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('delivers committed notifications in commit order; sync waits for all before it', async () => {
    const feed = createNotificationFeed(db);
    const { subscriber, payloads, nextReset } = recorder();
    const listening = nextReset();
    const unsubscribe = feed.subscribe('feed_test', subscriber);
    await listening;
    expect(feed.isLive()).toBe(true);
    await db.transaction(async (tx) => {
      for (const payload of ['a', 'b', 'c']) {
        await tx.query(`SELECT pg_notify('feed_test', $1)`, [payload]);
      }
    });
    // Rolled back: never delivered.
    await db
      .transaction(async (tx) => {
        await tx.query(`SELECT pg_notify('feed_test', 'never')`);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await db.query(`SELECT pg_notify('feed_test', 'd'), pg_notify('other_channel', 'x')`);
    await feed.sync();
    expect(payloads).toEqual(['a', 'b', 'c', 'd']);
    unsubscribe();
  });

  it('resets its subscribers when the connection is lost, and again once it listens anew', async () => {
    const feed = createNotificationFeed(db, { reconnectDelayMs: 50 });
    const { subscriber, payloads, nextReset } = recorder();
    const listening = nextReset();
    const unsubscribe = feed.subscribe('feed_test', subscriber);
    await listening;
    const [pid, ...others] = await listeners();
    expect(others).toEqual([]);
    if (pid === undefined) throw new Error('nobody listens');
    const lost = nextReset();
    await db.query('SELECT pg_terminate_backend($1)', [pid]);
    await lost;
    // Not live until it listens again: a cache must not trust what it holds meanwhile.
    expect(feed.isLive()).toBe(false);
    await nextReset();
    expect(feed.isLive()).toBe(true);
    await db.query(`SELECT pg_notify('feed_test', 'after')`);
    await feed.sync();
    expect(payloads).toEqual(['after']);
    unsubscribe();
  });

  it('closes its connection when the last subscriber leaves, and syncs at once with none', async () => {
    const feed = createNotificationFeed(db);
    const first = recorder();
    const second = recorder();
    const listening = first.nextReset();
    const leaveFirst = feed.subscribe('feed_test', first.subscriber);
    const leaveSecond = feed.subscribe('feed_test_two', second.subscriber);
    await listening;
    await feed.sync();
    expect(await listeners()).toHaveLength(1);
    leaveFirst();
    expect(feed.isLive()).toBe(true);
    leaveSecond();
    expect(feed.isLive()).toBe(false);
    await waitFor(
      'the listening connection to close',
      async () => (await listeners()).length === 0,
    );
    await feed.sync();
  });
});
