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
  // How long an entry may be served at most, even without any invalidation; 0 turns caching off.
  ttlMs: number;
  // The oldest entry makes room beyond this.
  maxEntries: number;
};

type Entry = Resolution & { storedAt: number };

// Resolved actors by bearer token. Only successes are kept; a failure is looked up again.
export const createActorCache = (options: ActorCacheOptions): ActorCache => {
  const entries = new Map<string, Entry>();
  const tokensBySubject = new Map<string, Set<string>>();
  let generation = 0;
  let live = false;

  const remove = (token: string): void => {
    const entry = entries.get(token);
    if (!entry) return;
    entries.delete(token);
    for (const subject of entry.dependsOn) {
      const tokens = tokensBySubject.get(subject);
      tokens?.delete(token);
      if (tokens?.size === 0) tokensBySubject.delete(subject);
    }
  };

  const clear = (): void => {
    entries.clear();
    tokensBySubject.clear();
  };

  const enabled = (): boolean => live && options.ttlMs > 0 && options.maxEntries > 0;

  return {
    lookup(token, now) {
      if (!enabled()) return undefined;
      const entry = entries.get(token);
      if (!entry) return undefined;
      const time = now.getTime();
      const fresh =
        time >= entry.storedAt &&
        time < entry.storedAt + options.ttlMs &&
        (entry.validUntil === null || time < entry.validUntil);
      if (fresh) return entry.actor;
      remove(token);
      return undefined;
    },
    ticket: () => generation,
    store(token, resolution, ticket, now) {
      if (!enabled() || ticket !== generation) return;
      remove(token);
      if (entries.size >= options.maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) remove(oldest.value);
      }
      entries.set(token, { ...resolution, storedAt: now.getTime() });
      for (const subject of resolution.dependsOn) {
        let tokens = tokensBySubject.get(subject);
        if (!tokens) {
          tokens = new Set();
          tokensBySubject.set(subject, tokens);
        }
        tokens.add(token);
      }
    },
    invalidate(subjects) {
      generation += 1;
      for (const subject of subjects) {
        if (subject === '*') {
          clear();
          return;
        }
        for (const token of [...(tokensBySubject.get(subject) ?? [])]) remove(token);
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
