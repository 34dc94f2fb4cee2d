import { describe, expect, it } from 'vitest';
import type { Actor } from './actor.js';
import { type ActorCache, createActorCache, type Resolution } from './actor-cache.js';

const t0 = new Date('2026-03-01T12:00:00Z');
const at = (ms: number): Date => new Date(t0.getTime() + ms);

const device: Actor = { kind: 'device', deviceId: 3, actorId: 30, applicationId: 2 };
const user: Actor = {
  kind: 'user',
  userId: 1,
  actorId: 10,
  platformPermissions: [],
  via: 'session',
  twoFactorPending: false,
  emailVerificationPending: false,
};
const deviceKey: Resolution = { actor: device, dependsOn: ['actor:30'], validUntil: null };
const session: Resolution = { actor: user, dependsOn: ['user:1'], validUntil: null };

const liveCache = (ttlMs = 10_000, maxEntries = 100, deviceTtlMs = ttlMs): ActorCache => {
  const cache = createActorCache({ ttlMs, deviceTtlMs, maxEntries });
  cache.setLive(true);
  return cache;
};

const stored = (cache: ActorCache, token: string, resolution: Resolution, now = t0): void =>
  cache.store(token, resolution, cache.ticket(), now);

describe('actor cache', () => {
  it('serves a stored resolution until the TTL has passed, by the given clock', () => {
    const cache = liveCache(10_000);
    stored(cache, 'k', deviceKey);
    expect(cache.lookup('k', t0)).toBe(device);
    expect(cache.lookup('k', at(9_999))).toBe(device);
    expect(cache.lookup('k', at(10_000))).toBeUndefined();
    expect(cache.size()).toBe(0);
  });

  it("keeps a device key for the device TTL and a user's token for the other", () => {
    const cache = liveCache(10_000, 100, 1_800_000);
    stored(cache, 'device', deviceKey);
    stored(cache, 'session', session);
    expect(cache.lookup('session', at(9_999))).toBe(user);
    expect(cache.lookup('session', at(10_000))).toBeUndefined();
    expect(cache.lookup('device', at(1_799_999))).toBe(device);
    expect(cache.lookup('device', at(1_800_000))).toBeUndefined();
    // Either lifetime at 0 keeps none of its kind and leaves the other alone.
    const noDevices = liveCache(10_000, 100, 0);
    stored(noDevices, 'device', deviceKey);
    stored(noDevices, 'session', session);
    expect(noDevices.lookup('device', t0)).toBeUndefined();
    expect(noDevices.lookup('session', t0)).toBe(user);
    const onlyDevices = liveCache(0, 100, 60_000);
    stored(onlyDevices, 'device', deviceKey);
    stored(onlyDevices, 'session', session);
    expect(onlyDevices.size()).toBe(1);
    expect(onlyDevices.lookup('device', t0)).toBe(device);
  });

  it('never serves past the credential expiry, nor to a clock that went back', () => {
    const cache = liveCache(60_000);
    stored(cache, 'k', { ...deviceKey, validUntil: at(5_000).getTime() });
    expect(cache.lookup('k', at(4_999))).toBe(device);
    expect(cache.lookup('k', at(5_000))).toBeUndefined();
    stored(cache, 's', session, at(1_000));
    expect(cache.lookup('s', t0)).toBeUndefined();
  });

  it('drops exactly the entries depending on an invalidated subject', () => {
    const cache = liveCache();
    const userKey: Resolution = { ...session, dependsOn: ['actor:10', 'user:1'] };
    stored(cache, 'device', deviceKey);
    stored(cache, 'session', session);
    stored(cache, 'user-key', userKey);
    cache.invalidate(['actor:10']);
    expect(cache.lookup('user-key', t0)).toBeUndefined();
    expect(cache.lookup('session', t0)).toBe(user);
    expect(cache.lookup('device', t0)).toBe(device);
    stored(cache, 'user-key', userKey);
    cache.invalidate(['user:1']);
    expect(cache.lookup('user-key', t0)).toBeUndefined();
    expect(cache.lookup('session', t0)).toBeUndefined();
    expect(cache.lookup('device', t0)).toBe(device);
    cache.invalidate(['user:2', 'actor:31']);
    expect(cache.lookup('device', t0)).toBe(device);
    cache.invalidate(['*']);
    expect(cache.size()).toBe(0);
  });

  it('drops every token of a subject that several tokens depend on, and only those', () => {
    const cache = liveCache();
    const secondSession: Resolution = { ...session, dependsOn: ['user:1'] };
    stored(cache, 's1', session);
    stored(cache, 's2', secondSession);
    stored(cache, 's3', secondSession);
    // Storing a token again, and removing one of several, leaves the others indexed.
    stored(cache, 's1', session);
    stored(cache, 's3', { ...secondSession, dependsOn: ['user:2'] });
    cache.invalidate(['user:1']);
    expect(cache.lookup('s1', t0)).toBeUndefined();
    expect(cache.lookup('s2', t0)).toBeUndefined();
    expect(cache.lookup('s3', t0)).toBe(user);
    cache.invalidate(['user:2']);
    expect(cache.size()).toBe(0);
  });

  it('does not keep a resolution read before an invalidation arrived', () => {
    const cache = liveCache();
    const ticket = cache.ticket();
    // The key is revoked while its row is being read: what was read may be stale.
    cache.invalidate(['actor:30']);
    cache.store('k', deviceKey, ticket, t0);
    expect(cache.lookup('k', t0)).toBeUndefined();
    // Any invalidation counts, whichever subject it names.
    const next = cache.ticket();
    cache.invalidate(['user:99']);
    cache.store('k', deviceKey, next, t0);
    expect(cache.size()).toBe(0);
  });

  it('stands aside while invalidations are not received, and starts empty again', () => {
    const cache = createActorCache({ ttlMs: 10_000, deviceTtlMs: 10_000, maxEntries: 100 });
    stored(cache, 'k', deviceKey);
    expect(cache.size()).toBe(0);
    cache.setLive(true);
    stored(cache, 'k', deviceKey);
    const ticket = cache.ticket();
    cache.setLive(false);
    expect(cache.lookup('k', t0)).toBeUndefined();
    stored(cache, 'k', deviceKey);
    expect(cache.size()).toBe(0);
    cache.setLive(true);
    // Read while the feed was down: not kept.
    cache.store('k', deviceKey, ticket, t0);
    expect(cache.size()).toBe(0);
  });

  it('is off with a TTL of 0', () => {
    const cache = liveCache(0);
    stored(cache, 'k', deviceKey);
    expect(cache.lookup('k', t0)).toBeUndefined();
    expect(cache.size()).toBe(0);
  });

  it('makes room by dropping the oldest entry, index included', () => {
    const cache = liveCache(10_000, 2);
    stored(cache, 'a', { ...deviceKey, dependsOn: ['actor:1'] });
    stored(cache, 'b', { ...deviceKey, dependsOn: ['actor:2'] });
    stored(cache, 'c', { ...deviceKey, dependsOn: ['actor:3'] });
    expect(cache.size()).toBe(2);
    expect(cache.lookup('a', t0)).toBeUndefined();
    expect(cache.lookup('b', t0)).toBe(device);
    // Storing a token again replaces its entry rather than growing the cache.
    stored(cache, 'c', { ...deviceKey, dependsOn: ['actor:4'] });
    expect(cache.size()).toBe(2);
    cache.invalidate(['actor:3']);
    expect(cache.lookup('c', t0)).toBe(device);
    cache.invalidate(['actor:4']);
    expect(cache.lookup('c', t0)).toBeUndefined();
  });
});
