import { performance } from 'node:perf_hooks';
import type { NotificationBus } from '../../infra/db/notification-bus.js';
import { type ChangeTicket, createNotifiedChanges, setNewest } from './notified-changes.js';

// The digest of the last report each device had applied by this process, so that the same report
// sent again (a supervisor in steady state: same state, new metrics) is answered without the
// database: applying it would write nothing. The database notifies on channel state_report
// (migrations/0031-state-report-notifications.sql) whatever could make such a report write
// something again: a device ('d:<id>': a column a report sets, its fleet, pinning, installs) or a
// fleet ('f:<id>': its uuid, target release, releases, images, services). An entry is good only
// while neither its device nor its fleet changed after the apply that stored it began
// (notified-changes.ts); so a change racing an apply, or notified before the apply's entry is
// stored, is never missed.
//
// Nothing is trusted while the subscription is not live; a reset forgets everything; entries
// expire after ttlMs (a backstop). Between a commit and its notification reaching this process a
// report may still be skipped: only a device that reports a change through another process and
// reverts it through this one within those milliseconds would see it (it reports again later).

export const stateReportChannel = 'state_report';

export type ApplyTicket = ChangeTicket;

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

export const createStateReportCache = (
  bus: Pick<NotificationBus, 'listen'>,
  options: StateReportCacheOptions = {},
): StateReportCache => {
  const maxEntries = options.maxEntries ?? 200_000;
  const entries = new Map<number, Entry>();
  const changes = createNotifiedChanges(bus, {
    channel: stateReportChannel,
    keyPattern: /^[df]:\d{1,10}$/,
    ttlMs: options.ttlMs ?? 10 * 60_000,
    maxChanges: options.maxChanges ?? 100_000,
    clock: options.clock ?? (() => performance.now()),
    onReset: () => entries.clear(),
  });

  return {
    unchanged(deviceId, digest) {
      if (!changes.live()) return false;
      const entry = entries.get(deviceId);
      if (!entry) return false;
      if (changes.stale(entry, [`d:${deviceId}`, `f:${entry.fleetId}`])) {
        entries.delete(deviceId);
        return false;
      }
      return entry.digest === digest;
    },
    begin: () => changes.begin(),
    // An apply that raced a change is stored all the same: unchanged() never trusts it.
    store(ticket, deviceId, report) {
      setNewest(entries, deviceId, { ...report, ...ticket }, maxEntries);
    },
    forget(deviceId) {
      entries.delete(deviceId);
    },
    close: () => changes.close(),
  };
};
