import { performance } from 'node:perf_hooks';
import type { NotificationBus } from '../../infra/db/notification-bus.js';
import { type ChangeTicket, createNotifiedChanges, setNewest } from './notified-changes.js';

// The ETag each device was last served, per process, so that a poll presenting it is answered
// 304 without reading the database. Every change a target is built from is notified by the
// database (migrations/0008-target-state-versions.sql) naming a device ('d:<id>'), a fleet
// ('f:<id>') or a release ('r:<id>'); an entry is good only while no key it was built from (its
// device, its fleet, its target release) changed after the entry's build began
// (notified-changes.ts), so a fleet-level change costs one map write, whatever the size of the
// fleet, and a build racing a change is never kept.
//
// Nothing is trusted while the subscription is not live (the process's LISTEN connection,
// infra/db/notification-bus.ts, is down or not yet listening to the channel): every lookup misses.
// A reset forgets everything; entries expire after ttlMs, a backstop. Between a commit and its
// notification reaching a process, that process may still answer 304 with the old ETag:
// notifications arrive within milliseconds, and the device gets the change on its next poll.

export const targetStateChannel = 'target_state';

export type CachedTarget = { deviceId: number; etag: string };

// What an entry depends on, as the build found it.
export type TargetKeys = {
  deviceId: number;
  fleetId: number;
  releaseId: number | null;
  // The host OS release the device should run and its host app, when it has one.
  host?: { releaseId: number; appId: number } | null;
};

export type BuildTicket = ChangeTicket;

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
  // Notified keys remembered before the oldest are forgotten (notified-changes.ts).
  maxChanges?: number;
  clock?: () => number;
};

// The notification keys an entry depends on are spelled once, when it is stored: a lookup (every
// poll) builds no string.
type Entry = CachedTarget & TargetKeys & BuildTicket & { dependsOn: readonly string[] };

const dependencies = (keys: TargetKeys): string[] => [
  `d:${keys.deviceId}`,
  `f:${keys.fleetId}`,
  ...(keys.releaseId === null ? [] : [`r:${keys.releaseId}`]),
  ...(keys.host ? [`r:${keys.host.releaseId}`, `f:${keys.host.appId}`] : []),
];

export const createTargetStateCache = (
  bus: Pick<NotificationBus, 'listen'>,
  options: TargetStateCacheOptions = {},
): TargetStateCache => {
  const maxEntries = options.maxEntries ?? 200_000;
  const entries = new Map<string, Entry>();
  const changes = createNotifiedChanges(bus, {
    channel: targetStateChannel,
    keyPattern: /^[dfr]:\d{1,10}$/,
    ttlMs: options.ttlMs ?? 30 * 60_000,
    maxChanges: options.maxChanges ?? 100_000,
    clock: options.clock ?? (() => performance.now()),
    onReset: () => entries.clear(),
  });

  return {
    lookup(uuid) {
      if (!changes.live()) return undefined;
      const entry = entries.get(uuid);
      if (!entry) return undefined;
      if (changes.stale(entry, entry.dependsOn)) {
        entries.delete(uuid);
        return undefined;
      }
      return entry;
    },
    begin: () => changes.begin(),
    // A build that raced a change, or ran while the connection was down, is stored all the same:
    // lookup never serves it (it is stale, or not live until the reset that forgets it).
    store(ticket, uuid, keys, etag) {
      const entry = { ...keys, etag, ...ticket, dependsOn: dependencies(keys) };
      setNewest(entries, uuid, entry, maxEntries);
    },
    close: () => changes.close(),
  };
};
