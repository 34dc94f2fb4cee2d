import type { Queryable } from '../../infra/db/database.js';
import { heartbeatTimings } from '../../model/definitions/device-status.js';
import {
  type DeviceContact,
  defaultMetricsRetentionMs,
  type Metrics,
  type WrittenContact,
  writeDeviceContacts,
} from './write-device-contacts.js';

// Device contacts (and the metrics of state reports) are kept in memory and written in batches:
// one statement per flush for every device heard from since the last one, instead of a write per
// request (register-heartbeat.ts flushes every FLOTILLA_CONTACT_FLUSH_INTERVAL_MS and at
// shutdown). The heartbeat fields are computed from the stored contact, so every process sees a
// contact within one flush interval. A failed flush (database away) keeps its entries for the
// next one; a crash loses at most one interval of contact times and metrics readings, never
// anything else. Memory is bounded: one entry per device, at most maxPending devices (contacts
// of further devices are dropped until a flush succeeds).
// A device polling more often than contacts are written (every 10 s, the statement's own rule)
// is not sent at all between its writes: the contact each flush stored is remembered for 10 s,
// and a bare contact within that time of it is one the statement would skip. The one exception
// the statement makes, a contact after a lost cloudlink, is kept by forgetting the device when
// this process sees its link close (forget); a link another process held and lost is ended by the
// device's next contact written, at most 10 s later, well within the 30 s the loss allows.

export type DeviceContacts = {
  // A contact at `at`; metrics, when given, were reported then.
  record(deviceId: number, at: Date, metrics?: Metrics): void;
  // Writes everything recorded so far, after any flush in progress. Rejects when the database
  // refused; what it could not write stays pending.
  flush(): Promise<void>;
  // Devices waiting for the next flush.
  pendingCount(): number;
  // The device's next contact is sent whenever it comes (its cloudlink was lost).
  forget(deviceId: number): void;
};

export type DeviceContactsOptions = {
  maxPending?: number;
  // Devices per statement.
  chunkSize?: number;
  // How long a device's metric readings are kept in its history (config.metricsRetentionHours).
  metricsRetentionMs?: number;
};

// The later contact, and the later metrics (newer readings win column by column).
const merge = (older: DeviceContact, newer: DeviceContact): DeviceContact => {
  // Two bare contacts (polls, most of what devices send): the later one, nothing allocated.
  if (!older.metrics && !newer.metrics) return newer.at > older.at ? newer : older;
  const at = newer.at > older.at ? newer.at : older.at;
  const metrics = [older.metrics, newer.metrics]
    .filter((entry) => entry !== undefined)
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const latest = metrics[metrics.length - 1];
  if (!latest) return { deviceId: newer.deviceId, at };
  const values: Metrics = {};
  for (const entry of metrics) Object.assign(values, entry.values);
  return { deviceId: newer.deviceId, at, metrics: { at: latest.at, values } };
};

export const createDeviceContacts = (
  db: Queryable,
  options: DeviceContactsOptions = {},
): DeviceContacts => {
  const maxPending = options.maxPending ?? 1_000_000;
  const chunkSize = options.chunkSize ?? 5_000;
  const retentionMs = options.metricsRetentionMs ?? defaultMetricsRetentionMs;
  let pending = new Map<number, DeviceContact>();
  let flushing: Promise<void> = Promise.resolve();
  // The contact stored for devices this process wrote within the last write interval (ms).
  const stored = new Map<number, number>();
  // Devices forgotten while a statement was on its way: what it returns of them is not kept.
  let forgotten = new Set<number>();
  const writeIntervalMs = heartbeatTimings.contactWriteIntervalMs;
  let latest = 0;

  // Whether the database holds a contact of the device recent enough to skip this one.
  const writtenRecently = (deviceId: number, at: number): boolean => {
    const contact = stored.get(deviceId);
    return contact !== undefined && at - contact < writeIntervalMs;
  };

  const remember = (written: readonly WrittenContact[]): void => {
    for (const [deviceId, contact] of stored) {
      if (latest - contact >= writeIntervalMs) stored.delete(deviceId);
    }
    for (const row of written) {
      if (row.contactAt !== null && !forgotten.has(row.id)) {
        stored.set(row.id, row.contactAt.getTime());
      }
    }
  };

  const put = (contact: DeviceContact): void => {
    const existing = pending.get(contact.deviceId);
    if (existing) pending.set(contact.deviceId, merge(existing, contact));
    else if (pending.size < maxPending) pending.set(contact.deviceId, contact);
  };

  const writeAll = async (): Promise<void> => {
    const batch = [...pending.values()];
    pending = new Map();
    for (let start = 0; start < batch.length; start += chunkSize) {
      try {
        forgotten = new Set();
        remember(await writeDeviceContacts(db, batch.slice(start, start + chunkSize), retentionMs));
      } catch (error) {
        // Kept for the next flush, merged with whatever arrived meanwhile.
        for (const contact of batch.slice(start)) put(contact);
        throw error;
      }
    }
  };

  return {
    record(deviceId, at, metrics) {
      const values = metrics && Object.keys(metrics).length > 0 ? metrics : undefined;
      const time = at.getTime();
      if (time > latest) latest = time;
      if (values) put({ deviceId, at, metrics: { at, values } });
      else if (!writtenRecently(deviceId, time)) put({ deviceId, at });
    },
    flush() {
      const run = flushing.then(writeAll);
      // The chain goes on after a failure; the caller still sees it.
      flushing = run.catch(() => undefined);
      return run;
    },
    pendingCount: () => pending.size,
    forget(deviceId) {
      stored.delete(deviceId);
      forgotten.add(deviceId);
    },
  };
};
