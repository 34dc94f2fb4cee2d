import { describe, expect, it } from 'vitest';
import type { NotificationBus } from '../../infra/db/notification-bus.js';
import {
  createTargetStateCache,
  type TargetKeys,
  targetStateChannel,
} from './target-state-cache.js';

type Subscriber = { onPayload(payload: string): void; onReset(): void };

// A bus driven by the test: it delivers what the test sends, is live when told, and resets its
// subscriber when told.
const fakeBus = () => {
  let subscriber: Subscriber | undefined;
  let live = true;
  const bus: Pick<NotificationBus, 'listen'> = {
    listen(channel, onPayload, onReset) {
      if (channel !== targetStateChannel) throw new Error(`unexpected channel ${channel}`);
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
  return {
    bus,
    notify: (payload: string) => current().onPayload(payload),
    reset: () => current().onReset(),
    setLive: (value: boolean) => {
      live = value;
    },
    subscribed: () => subscriber !== undefined,
  };
};

const keys: TargetKeys = { deviceId: 1, fleetId: 10, releaseId: 100 };

const setup = ({ ttlMs = 60_000, maxChanges = 100, maxEntries = 100 } = {}) => {
  const fake = fakeBus();
  let now = 0;
  const cache = createTargetStateCache(fake.bus, {
    ttlMs,
    maxChanges,
    maxEntries,
    clock: () => now,
  });
  const prime = (uuid = 'u1', entryKeys: TargetKeys = keys, etag = '"e1"') =>
    cache.store(cache.begin(), uuid, entryKeys, etag);
  return {
    ...fake,
    cache,
    prime,
    advance: (ms: number) => {
      now += ms;
    },
  };
};

describe('target-state cache', () => {
  it('serves a stored ETag until its device, fleet or release changes', () => {
    for (const change of ['d:1', 'f:10', 'r:100']) {
      const { cache, prime, notify } = setup();
      prime();
      expect(cache.lookup('u1')).toMatchObject({ ...keys, etag: '"e1"', seq: 0, startedAt: 0 });
      notify(change);
      expect(cache.lookup('u1'), change).toBeUndefined();
    }
  });

  it('ignores changes of other devices, fleets and releases', () => {
    const { cache, prime, notify } = setup();
    prime();
    for (const other of ['d:2', 'f:11', 'r:101', 'd:10', 'f:1', 'r:1']) notify(other);
    expect(cache.lookup('u1')?.etag).toBe('"e1"');
  });

  it('depends on the host OS release and its host app when the target has them, and on no release when it has none', () => {
    const withHost: TargetKeys = { ...keys, host: { releaseId: 200, appId: 20 } };
    for (const change of ['r:200', 'f:20', 'd:1']) {
      const { cache, prime, notify } = setup();
      prime('u1', withHost);
      notify('r:201');
      expect(cache.lookup('u1')?.etag).toBe('"e1"');
      notify(change);
      expect(cache.lookup('u1'), change).toBeUndefined();
    }
    const { cache, prime, notify } = setup();
    prime('u1', { ...keys, releaseId: null });
    for (const other of ['r:100', 'r:200', 'f:20']) notify(other);
    expect(cache.lookup('u1')?.etag).toBe('"e1"');
  });

  it('keeps no ETag of a build that a change raced', () => {
    const { cache, notify } = setup();
    const ticket = cache.begin();
    // The change committed while the build was reading: what it read may predate it.
    notify('f:10');
    cache.store(ticket, 'u1', keys, '"e1"');
    expect(cache.lookup('u1')).toBeUndefined();
    // A build begun after the change is kept.
    cache.store(cache.begin(), 'u1', keys, '"e2"');
    expect(cache.lookup('u1')?.etag).toBe('"e2"');
  });

  it('trusts nothing while its subscription is not live, and forgets everything on a reset', () => {
    const { cache, prime, setLive, reset } = setup();
    prime();
    setLive(false);
    expect(cache.lookup('u1')).toBeUndefined();
    prime('u2');
    expect(cache.lookup('u2')).toBeUndefined();
    // The bus resets its subscribers once it listens again.
    reset();
    setLive(true);
    expect(cache.lookup('u2')).toBeUndefined();
    // A build begun before a reset is not kept after it.
    const ticket = cache.begin();
    reset();
    expect(cache.lookup('u1')).toBeUndefined();
    cache.store(ticket, 'u1', keys, '"e1"');
    expect(cache.lookup('u1')).toBeUndefined();
  });

  it('forgets everything on a notification it does not understand (TRUNCATE sends *)', () => {
    const { cache, prime, notify } = setup();
    prime();
    notify('*');
    expect(cache.lookup('u1')).toBeUndefined();
  });

  it('expires entries after the TTL', () => {
    const { cache, prime, advance } = setup({ ttlMs: 1000 });
    prime();
    advance(1000);
    expect(cache.lookup('u1')?.etag).toBe('"e1"');
    advance(1);
    expect(cache.lookup('u1')).toBeUndefined();
  });

  it('bounds what it remembers of changes without reviving stale entries', () => {
    const { cache, prime, notify, advance } = setup({ ttlMs: 1000, maxChanges: 3 });
    prime('old', { deviceId: 1, fleetId: 10, releaseId: null });
    notify('f:10');
    advance(2000);
    // More changed keys than maxChanges (3): those older than the TTL are forgotten ...
    prime('fresh', { deviceId: 2, fleetId: 20, releaseId: null });
    for (const key of ['d:7', 'd:8', 'd:9']) notify(key);
    expect(cache.lookup('old')).toBeUndefined();
    expect(cache.lookup('fresh')?.etag).toBe('"e1"');
    // ... and when the recent ones alone are too many, everything is.
    notify('d:6');
    expect(cache.lookup('fresh')).toBeUndefined();
  });

  it('holds at most maxEntries, dropping the least recently stored', () => {
    const { cache, prime } = setup({ maxEntries: 2 });
    prime('u1');
    prime('u2');
    prime('u1', keys, '"e1b"');
    prime('u3');
    expect(cache.lookup('u2')).toBeUndefined();
    expect(cache.lookup('u1')?.etag).toBe('"e1b"');
    expect(cache.lookup('u3')?.etag).toBe('"e1"');
  });

  it('releases its subscription when closed', () => {
    const { cache, subscribed } = setup();
    expect(subscribed()).toBe(true);
    cache.close();
    expect(subscribed()).toBe(false);
  });
});
