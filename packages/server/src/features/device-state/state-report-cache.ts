import { performance } from 'node:perf_hooks';
import type { NotificationBus } from '../../infra/db/notification-bus.js';

// The digest of the last report each device had applied by this process, so that the same report
// sent again (a supervisor in steady state: same state, new metrics) is answered without the
// database: applying it would write nothing. The database notifies on channel state_report
// (migrations/0031-state-report-notifications.sql) whatever could make such a report write
// something again: a device ('d:<id>': a column a report sets, its fleet, pinning, installs) or a
// fleet ('f:<id>': its uuid, target release, releases, images, services). As in
// target-state-cache.ts, each notification gets the next number of a counter, and an entry is good
// only while neither its device nor its fleet changed after the apply that stored it began; so a
// change racing an apply, or notified before the apply's entry is stored, is never missed.
//
// Nothing is trusted while the subscription is not live; a reset forgets everything; entries
// expire after ttlMs (a backstop). Between a commit and its notification reaching this process a
// report may still be skipped: only a device that reports a change through another process and
// reverts it through this one within those milliseconds would see it (it reports again later).

export const stateReportChannel = 'state_report';

export type ApplyTicket = { seq: number; startedAt: number };

// What an entry stands for: the report's digest, and the fleet the device was in when applied.
export type AppliedReport = { digest: string; fleetId: number };

export type StateReportCache = {
  // Whether this device's last applied report had this digest and nothing changed since.
  unchanged(deviceId: number, digest: string): boolean;
  // Call before applying; pass the ticket to store.
  begin(): ApplyTicket;
  store(ticket: ApplyTicket, deviceId: number, report: AppliedReport): void;
  // Forgets a device's entry (a report that could not be applied).
  forget(deviceId: number): void;
  close(): void;
};

export type StateReportCacheOptions = {
  ttlMs?: number;
  maxEntries?: number;
  maxChanges?: number;
  clock?: () => number;
};

type Entry = AppliedReport & ApplyTicket;
type Change = { seq: number; at: number };

const notifiedKey = /^[df]:\d{1,10}$/;

export const createStateReportCache = (
  bus: Pick<NotificationBus, 'listen'>,
  options: StateReportCacheOptions = {},
): StateReportCache => {
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const maxEntries = options.maxEntries ?? 200_000;
  const maxChanges = options.maxChanges ?? 100_000;
  const clock = options.clock ?? (() => performance.now());
  const entries = new Map<number, Entry>();
  const changes = new Map<string, Change>();
  let seq = 0;
  let validFrom = 0;

  const reset = (): void => {
    seq += 1;
    validFrom = seq;
    entries.clear();
    changes.clear();
  };

  const changedAfter = (key: string, entry: Entry): boolean =>
    (changes.get(key)?.seq ?? 0) > entry.seq;

  const stale = (deviceId: number, entry: Entry): boolean =>
    entry.seq < validFrom ||
    clock() - entry.startedAt > ttlMs ||
    changedAfter(`d:${deviceId}`, entry) ||
    changedAfter(`f:${entry.fleetId}`, entry);

  // A change older than ttlMs concerns only expired entries.
  const prune = (): void => {
    if (changes.size <= maxChanges) return;
    const horizon = clock() - ttlMs;
    for (const [key, change] of changes) if (change.at < horizon) changes.delete(key);
    if (changes.size > maxChanges) reset();
  };

  const subscription = bus.listen(
    stateReportChannel,
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
    unchanged(deviceId, digest) {
      if (!subscription.live()) return false;
      const entry = entries.get(deviceId);
      if (!entry) return false;
      if (stale(deviceId, entry)) {
        entries.delete(deviceId);
        return false;
      }
      return entry.digest === digest;
    },
    begin: () => ({ seq, startedAt: clock() }),
    // An apply that raced a change is stored all the same: unchanged() never trusts it.
    store(ticket, deviceId, report) {
      entries.delete(deviceId);
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(deviceId, { ...report, ...ticket });
    },
    forget(deviceId) {
      entries.delete(deviceId);
    },
    close() {
      subscription.close();
      reset();
    },
  };
};
