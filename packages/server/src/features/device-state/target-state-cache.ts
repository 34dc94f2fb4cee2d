import { performance } from 'node:perf_hooks';
import type { NotificationBus } from '../../infra/db/notification-bus.js';

// The ETag each device was last served, per process, so that a poll presenting it is answered
// 304 without reading the database. Every change a target is built from is notified by the
// database (migrations/0008-target-state-versions.sql) naming a device ('d:<id>'), a fleet
// ('f:<id>') or a release ('r:<id>'). Each notification gets the next number of a counter
// (`seq`); the cache keeps, per notified key, the number of its latest change, and an entry is
// good only while no key it was built from (its device, its fleet, its target release) changed
// after the entry's build began. So a fleet-level change costs one map write, whatever the size
// of the fleet, and a build racing a change is never kept.
//
// Nothing is trusted while the subscription is not live (the process's LISTEN connection,
// infra/db/notification-bus.ts, is down or not yet listening to the channel): every lookup misses.
// A reset (the connection lost or the channel listened to again, or a notification nobody
// understands) forgets everything. Entries also expire after ttlMs, a backstop for a
// change no trigger covers. Between a commit and its notification reaching a process, that
// process may still answer 304 with the old ETag: notifications arrive within milliseconds, and
// the device gets the change on its next poll.

export const targetStateChannel = 'target_state';

export type CachedTarget = { deviceId: number; etag: string };

// What an entry depends on, as the build found it.
export type TargetKeys = { deviceId: number; fleetId: number; releaseId: number | null };

export type BuildTicket = { seq: number; startedAt: number };

export type TargetStateCache = {
  lookup(uuid: string): CachedTarget | undefined;
  // Call before reading what the target is built from; pass the ticket to store.
  begin(): BuildTicket;
  store(ticket: BuildTicket, uuid: string, keys: TargetKeys, etag: string): void;
  close(): void;
};

export type TargetStateCacheOptions = {
  ttlMs?: number;
  maxEntries?: number;
  // Notified keys remembered before the oldest are forgotten (see prune).
  maxChanges?: number;
  clock?: () => number;
};

type Entry = CachedTarget & TargetKeys & BuildTicket;
type Change = { seq: number; at: number };

const notifiedKey = /^[dfr]:\d{1,10}$/;

export const createTargetStateCache = (
  bus: Pick<NotificationBus, 'listen'>,
  options: TargetStateCacheOptions = {},
): TargetStateCache => {
  const ttlMs = options.ttlMs ?? 30 * 60_000;
  const maxEntries = options.maxEntries ?? 200_000;
  const maxChanges = options.maxChanges ?? 100_000;
  const clock = options.clock ?? (() => performance.now());
  const entries = new Map<string, Entry>();
  const changes = new Map<string, Change>();
  let seq = 0;
  // Entries whose build began before this were built before a reset.
  let validFrom = 0;

  const reset = (): void => {
    seq += 1;
    validFrom = seq;
    entries.clear();
    changes.clear();
  };

  const changedAfter = (key: string, ticket: BuildTicket): boolean =>
    (changes.get(key)?.seq ?? 0) > ticket.seq;

  const stale = (entry: Entry): boolean =>
    entry.seq < validFrom ||
    clock() - entry.startedAt > ttlMs ||
    changedAfter(`d:${entry.deviceId}`, entry) ||
    changedAfter(`f:${entry.fleetId}`, entry) ||
    (entry.releaseId !== null && changedAfter(`r:${entry.releaseId}`, entry));

  // A change older than ttlMs can be forgotten: every entry whose build began before it has
  // expired. Should more keys than that change within ttlMs, everything is forgotten at once.
  const prune = (): void => {
    if (changes.size <= maxChanges) return;
    const horizon = clock() - ttlMs;
    for (const [key, change] of changes) if (change.at < horizon) changes.delete(key);
    if (changes.size > maxChanges) reset();
  };

  const subscription = bus.listen(
    targetStateChannel,
    (payload) => {
      if (!notifiedKey.test(payload)) {
        reset();
        return;
      }
      seq += 1;
      changes.set(payload, { seq, at: clock() });
      prune();
    },
    reset,
  );

  return {
    lookup(uuid) {
      if (!subscription.live()) return undefined;
      const entry = entries.get(uuid);
      if (!entry) return undefined;
      if (stale(entry)) {
        entries.delete(uuid);
        return undefined;
      }
      return entry;
    },
    begin: () => ({ seq, startedAt: clock() }),
    // A build that raced a change, or ran while the connection was down, is stored all the same:
    // lookup never serves it (it is stale, or not live until the reset that forgets it).
    store(ticket, uuid, keys, etag) {
      const entry: Entry = { ...keys, etag, ...ticket };
      entries.delete(uuid);
      // Oldest first: the map keeps insertion order.
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(uuid, entry);
    },
    close() {
      subscription.close();
      reset();
    },
  };
};
