import type { NotificationBus } from '../../infra/db/notification-bus.js';

// The bookkeeping both device-state caches (target-state-cache.ts, state-report-cache.ts) share:
// each notification on their channel names a key ('d:<id>', 'f:<id>', ...) and gets the next
// number of a counter (`seq`); the latest number per key is kept, so an entry begun at a ticket
// is stale as soon as one key it depends on changed after it, whatever the number of entries
// (a fleet-level change is one map write). Nothing is trusted while the subscription is not
// live; a reset (the connection lost, the channel listened to again, a payload nobody
// understands, too many changes to remember) forgets everything; entries expire after ttlMs,
// a backstop for a change no trigger covers.

export type ChangeTicket = { seq: number; startedAt: number };

export type NotifiedChanges = {
  live(): boolean;
  // Taken before reading what an entry is made of.
  begin(): ChangeTicket;
  // Begun before a reset, older than ttlMs, or one of `keys` changed after the ticket.
  stale(ticket: ChangeTicket, keys: readonly string[]): boolean;
  close(): void;
};

export type NotifiedChangesOptions = {
  channel: string;
  // The payloads understood; any other resets.
  keyPattern: RegExp;
  ttlMs: number;
  // Keys remembered before the ones older than ttlMs are forgotten.
  maxChanges: number;
  clock: () => number;
  // Every reset: the cache forgets its entries.
  onReset: () => void;
};

type Change = { seq: number; at: number };

export const createNotifiedChanges = (
  bus: Pick<NotificationBus, 'listen'>,
  options: NotifiedChangesOptions,
): NotifiedChanges => {
  const { ttlMs, maxChanges, clock } = options;
  const changes = new Map<string, Change>();
  let seq = 0;
  // Tickets taken before this were taken before a reset.
  let validFrom = 0;

  const reset = (): void => {
    seq += 1;
    validFrom = seq;
    changes.clear();
    options.onReset();
  };

  // A change older than ttlMs concerns only expired entries. Should more keys than maxChanges
  // change within ttlMs, everything is forgotten at once.
  const prune = (): void => {
    if (changes.size <= maxChanges) return;
    const horizon = clock() - ttlMs;
    for (const [key, change] of changes) if (change.at < horizon) changes.delete(key);
    if (changes.size > maxChanges) reset();
  };

  const subscription = bus.listen(
    options.channel,
    (payload) => {
      if (!options.keyPattern.test(payload)) {
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
    live: () => subscription.live(),
    begin: () => ({ seq, startedAt: clock() }),
    stale(ticket, keys) {
      if (ticket.seq < validFrom || clock() - ticket.startedAt > ttlMs) return true;
      // A plain loop: this runs for every poll answered from memory.
      for (const key of keys) if ((changes.get(key)?.seq ?? 0) > ticket.seq) return true;
      return false;
    },
    close() {
      subscription.close();
      reset();
    },
  };
};

// Sets `key` as the newest entry of `entries` (a Map keeps insertion order), dropping the oldest
// beyond maxEntries.
export const setNewest = <K, V>(entries: Map<K, V>, key: K, value: V, maxEntries: number): void => {
  entries.delete(key);
  if (entries.size >= maxEntries) {
    const oldest = entries.keys().next();
    if (!oldest.done) entries.delete(oldest.value);
  }
  entries.set(key, value);
};
