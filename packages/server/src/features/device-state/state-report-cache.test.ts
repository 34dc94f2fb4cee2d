import { describe, expect, it } from 'vitest';
import type { NotificationBus } from '../../infra/db/notification-bus.js';
import { createStateReportCache, stateReportChannel } from './state-report-cache.js';

type Subscriber = { onPayload(payload: string): void; onReset(): void };

// A bus driven by the test: it delivers what the test sends, is live when told, and resets its
// subscriber when told.
const setup = ({ ttlMs = 60_000, maxChanges = 100, maxEntries = 100 } = {}) => {
  let subscriber: Subscriber | undefined;
  let live = true;
  let now = 0;
  const bus: Pick<NotificationBus, 'listen'> = {
    listen(channel, onPayload, onReset) {
      if (channel !== stateReportChannel) throw new Error(`unexpected channel ${channel}`);
      if (subscriber) throw new Error('subscribed twice');
      if (!onReset) throw new Error('a cache must be told of gaps');
      subscriber = { onPayload, onReset };
      return {
        ready: Promise.resolve(),
        live: () => live,
        close() {
          subscriber = undefined;
        },
      };
    },
  };
  const current = (): Subscriber => {
    if (!subscriber) throw new Error('nobody subscribed');
    return subscriber;
  };
  const cache = createStateReportCache(bus, { ttlMs, maxChanges, maxEntries, clock: () => now });
  return {
    cache,
    // Device 1 of fleet 10 applied the report with digest "a".
    prime: (deviceId = 1, digest = 'a', fleetId = 10) =>
      cache.store(cache.begin(), deviceId, { digest, fleetId }),
    notify: (payload: string) => current().onPayload(payload),
    reset: () => current().onReset(),
    setLive: (value: boolean) => {
      live = value;
    },
    advance: (ms: number) => {
      now += ms;
    },
    subscribed: () => subscriber !== undefined,
  };
};

describe('state-report cache', () => {
  it('knows the digest a device last applied, and no other', () => {
    const { cache, prime } = setup();
    expect(cache.unchanged(1, 'a')).toBe(false);
    prime();
    expect(cache.unchanged(1, 'a')).toBe(true);
    expect(cache.unchanged(1, 'b')).toBe(false);
    expect(cache.unchanged(2, 'a')).toBe(false);
    prime(1, 'b');
    expect(cache.unchanged(1, 'a')).toBe(false);
    expect(cache.unchanged(1, 'b')).toBe(true);
    cache.forget(1);
    expect(cache.unchanged(1, 'b')).toBe(false);
  });

  it('stops trusting an entry once its device or its fleet changes', () => {
    for (const change of ['d:1', 'f:10']) {
      const { cache, prime, notify } = setup();
      prime();
      notify(change);
      expect(cache.unchanged(1, 'a'), change).toBe(false);
    }
  });

  it('ignores changes of other devices and fleets', () => {
    const { cache, prime, notify } = setup();
    prime();
    for (const other of ['d:2', 'f:11', 'd:10', 'f:1']) notify(other);
    expect(cache.unchanged(1, 'a')).toBe(true);
  });

  it('keeps no entry of an apply that a change raced', () => {
    const { cache, notify } = setup();
    const ticket = cache.begin();
    // Notified before the apply's entry is stored: what the apply read may predate it.
    notify('d:1');
    cache.store(ticket, 1, { digest: 'a', fleetId: 10 });
    expect(cache.unchanged(1, 'a')).toBe(false);
    cache.store(cache.begin(), 1, { digest: 'a', fleetId: 10 });
    expect(cache.unchanged(1, 'a')).toBe(true);
  });

  it('trusts nothing while its subscription is not live, and forgets everything on a reset', () => {
    const { cache, prime, setLive, reset } = setup();
    prime();
    setLive(false);
    expect(cache.unchanged(1, 'a')).toBe(false);
    prime(2);
    reset();
    setLive(true);
    expect(cache.unchanged(1, 'a')).toBe(false);
    expect(cache.unchanged(2, 'a')).toBe(false);
    const ticket = cache.begin();
    reset();
    cache.store(ticket, 1, { digest: 'a', fleetId: 10 });
    expect(cache.unchanged(1, 'a')).toBe(false);
  });

  it('forgets everything on a notification it does not understand', () => {
    const { cache, prime, notify } = setup();
    prime();
    notify('*');
    expect(cache.unchanged(1, 'a')).toBe(false);
  });

  it('expires entries after the TTL', () => {
    const { cache, prime, advance } = setup({ ttlMs: 1000 });
    prime();
    advance(1000);
    expect(cache.unchanged(1, 'a')).toBe(true);
    advance(1);
    expect(cache.unchanged(1, 'a')).toBe(false);
  });

  it('bounds what it remembers of changes without reviving stale entries', () => {
    const { cache, prime, notify, advance } = setup({ ttlMs: 1000, maxChanges: 3 });
    prime(1);
    notify('f:10');
    advance(2000);
    prime(2, 'a', 20);
    for (const key of ['d:7', 'd:8', 'd:9']) notify(key);
    expect(cache.unchanged(1, 'a')).toBe(false);
    expect(cache.unchanged(2, 'a')).toBe(true);
    notify('d:6');
    expect(cache.unchanged(2, 'a')).toBe(false);
  });

  it('holds at most maxEntries, dropping the least recently stored', () => {
    const { cache, prime } = setup({ maxEntries: 2 });
    prime(1);
    prime(2);
    prime(1, 'b');
    prime(3);
    expect(cache.unchanged(2, 'a')).toBe(false);
    expect(cache.unchanged(1, 'b')).toBe(true);
    expect(cache.unchanged(3, 'a')).toBe(true);
  });

  it('releases its subscription when closed', () => {
    const { cache, subscribed } = setup();
    expect(subscribed()).toBe(true);
    cache.close();
    expect(subscribed()).toBe(false);
  });
});
