import type { Actor } from './actor.js';

// What a resolved actor depends on, named as the database names its changes
// (migrations/0007-auth-cache-invalidation.sql): a user (its jwt_secret, platform roles,
// existence) or an actor (its API keys, and the fleet or device owning it).
export type AuthSubject = `user:${number}` | `actor:${number}`;

// A successful resolution of a bearer token, as the cache keeps it.
export type Resolution = {
  actor: Actor;
  dependsOn: readonly AuthSubject[];
  // When the credential itself expires (session exp, API key expiry_date), in ms; null = never.
  validUntil: number | null;
};

export type ActorCache = {
  // The cached actor of a token, or undefined (not cached, stale, expired, or the cache is off).
  lookup(token: string, now: Date): Actor | undefined;
  // Taken before reading the database; `store` keeps the result only if nothing was
  // invalidated (and the invalidation feed did not drop) in between.
  ticket(): number;
  store(token: string, resolution: Resolution, ticket: number, now: Date): void;
  // Drops every entry depending on one of the subjects; '*' drops everything.
  invalidate(subjects: readonly string[]): void;
  // Whether invalidations are being received. While they are not, the cache is empty and unused:
  // correctness first.
  setLive(live: boolean): void;
  size(): number;
};

export type ActorCacheOptions = {
  // How long a user's or fleet's entry may be served at most, even without any invalidation;
  // 0 keeps none.
  ttlMs: number;
  // The same for a device key. Longer: a device polls every few minutes, and its target-state
  // ETag (device-state/target-state-cache.ts) already trusts the same notifications that long.
  deviceTtlMs: number;
  // The oldest entry makes room beyond this.
  maxEntries: number;
};

type Entry = Resolution & { storedAt: number; expiresAt: number };

// Resolved actors by bearer token. Only successes are kept; a failure is looked up again.
export const createActorCache = (options: ActorCacheOptions): ActorCache => {
  const entries = new Map<string, Entry>();
  // A subject's tokens: one token alone as a string (a device key's actor has one key, and a
  // Set costs ~180 bytes more per entry), a Set from the second.
  const tokensBySubject = new Map<string, string | Set<string>>();
  let generation = 0;
  let live = false;

  const tokensOf = (subject: string): string[] => {
    const tokens = tokensBySubject.get(subject);
    if (tokens === undefined) return [];
    return typeof tokens === 'string' ? [tokens] : [...tokens];
  };

  const index = (subject: string, token: string): void => {
    const tokens = tokensBySubject.get(subject);
    if (tokens === undefined || tokens === token) tokensBySubject.set(subject, token);
    else if (typeof tokens === 'string') tokensBySubject.set(subject, new Set([tokens, token]));
    else tokens.add(token);
  };

  const unindex = (subject: string, token: string): void => {
    const tokens = tokensBySubject.get(subject);
    if (tokens === token) tokensBySubject.delete(subject);
    else if (typeof tokens === 'object') {
      tokens.delete(token);
      if (tokens.size === 0) tokensBySubject.delete(subject);
    }
  };

  const remove = (token: string): void => {
    const entry = entries.get(token);
    if (!entry) return;
    entries.delete(token);
    for (const subject of entry.dependsOn) unindex(subject, token);
  };

  const clear = (): void => {
    entries.clear();
    tokensBySubject.clear();
  };

  const enabled = (): boolean => live && options.maxEntries > 0;
  const ttlOf = (actor: Resolution['actor']): number =>
    actor.kind === 'device' ? options.deviceTtlMs : options.ttlMs;

  return {
    lookup(token, now) {
      if (!enabled()) return undefined;
      const entry = entries.get(token);
      if (!entry) return undefined;
      const time = now.getTime();
      const fresh =
        time >= entry.storedAt &&
        time < entry.expiresAt &&
        (entry.validUntil === null || time < entry.validUntil);
      if (fresh) return entry.actor;
      remove(token);
      return undefined;
    },
    ticket: () => generation,
    store(token, resolution, ticket, now) {
      const ttlMs = ttlOf(resolution.actor);
      if (!enabled() || ticket !== generation || ttlMs <= 0) return;
      remove(token);
      if (entries.size >= options.maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) remove(oldest.value);
      }
      const storedAt = now.getTime();
      entries.set(token, { ...resolution, storedAt, expiresAt: storedAt + ttlMs });
      for (const subject of resolution.dependsOn) index(subject, token);
    },
    invalidate(subjects) {
      generation += 1;
      for (const subject of subjects) {
        if (subject === '*') {
          clear();
          return;
        }
        for (const token of tokensOf(subject)) remove(token);
      }
    },
    setLive(next) {
      generation += 1;
      live = next;
      clear();
    },
    size: () => entries.size,
  };
};
