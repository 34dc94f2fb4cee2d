import { createHash } from 'node:crypto';
import type { Queryable, SqlValue } from '../../infra/db/database.js';
import { isDatabaseUnavailable } from '../../infra/db/connection-errors.js';
import { createGroupCommit, type Outcome } from '../../infra/db/group-commit.js';
import type { ApplyTicket, StateReportCache } from './state-report-cache.js';
import type { DeviceReport } from '@flotilla/shared/device-protocol/state-report-v3';

// Writes state reports in batches (group commit, infra/db/group-commit.ts): the reports of every
// device waiting go to the database in one statement and one commit
// (migrations/0094-state-report-set-based.sql: 0009's rules, applied set-based to the whole
// batch), and each report is answered only after that commit. Per device, reports apply in arrival order. Should a
// batch fail, its reports are applied one by one, so a report the database refuses fails alone.
//
// A report that repeats the last one this process applied to the device (metrics aside), while
// nothing it depends on changed since (state-report-cache.ts), is answered without the database:
// applying it would write nothing. A report naming another fleet's apps (a public host OS fleet)
// is always applied: only the device's own fleet is watched.

export type StateReportToApply = {
  device: { id: number; uuid: string };
  // The device columns the report sets (metrics aside: features/heartbeat batches them).
  columns: Record<string, SqlValue>;
  apps: DeviceReport['apps'];
  agentProfile: DeviceReport['agent_profile'];
  now: Date;
};

export type StateReportWriter = {
  // False, with nothing written, when the device with this id does not have this uuid.
  apply(report: StateReportToApply): Promise<boolean>;
};

export type StateReportWriterOptions = {
  // Batches written at once, each on its own connection.
  maxInFlight?: number;
  maxBatch?: number;
};

type Queued = {
  report: StateReportToApply;
  columnsText: string;
  appsText: string | null;
  digest: string;
  ticket: ApplyTicket;
};

type Applied = { own: boolean; fleetId: number | null; fleetUuid: string | null };

const applySql = `
  SELECT r."own", r."fleetId", r."fleetUuid"
    FROM flotilla_apply_state_reports($1::integer[], $2::text[], $3::timestamptz[], $4::jsonb[],
                                      $5::json[], $6::jsonb[])
         WITH ORDINALITY AS r("own", "fleetId", "fleetUuid", "n")
   ORDER BY r."n"`;

// A deadlock or serialization failure rolled the whole batch back (a batch and another writer of
// device rows, such as the contacts' flush, each waiting on a row the other holds, e.g. a
// fleet's status tally): the batch is tried again, at most this many times in all.
const attempts = 3;
const isTransient = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  'code' in error &&
  (error.code === '40P01' || error.code === '40001');

const applyOnce = async (db: Queryable, items: readonly Queued[]): Promise<Applied[]> => {
  const { rows } = await db.query<Applied>(applySql, [
    items.map((item) => item.report.device.id),
    items.map((item) => item.report.device.uuid),
    items.map((item) => item.report.now.toISOString()),
    items.map((item) => item.columnsText),
    items.map((item) => item.appsText),
    items.map((item) =>
      item.report.agentProfile === undefined ? null : JSON.stringify(item.report.agentProfile),
    ),
  ]);
  if (rows.length !== items.length) throw new Error('The batch did not return a row per report');
  return rows;
};

const applyBatch = async (db: Queryable, items: readonly Queued[]): Promise<Applied[]> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await applyOnce(db, items);
    } catch (error) {
      if (attempt >= attempts || !isTransient(error)) throw error;
    }
  }
};

export const createStateReportWriter = (
  db: Queryable,
  cache: StateReportCache,
  options: StateReportWriterOptions = {},
): StateReportWriter => {
  const remember = (item: Queued, applied: Applied): boolean => {
    const { device, apps } = item.report;
    if (!applied.own || applied.fleetId === null) {
      cache.forget(device.id);
      return false;
    }
    const ownFleetOnly = Object.keys(apps ?? {}).every((uuid) => uuid === applied.fleetUuid);
    if (ownFleetOnly) {
      cache.store(item.ticket, device.id, { digest: item.digest, fleetId: applied.fleetId });
    } else cache.forget(device.id);
    return true;
  };

  const write = async (batch: readonly Queued[]): Promise<Outcome<boolean>[]> => {
    // One order for every batch's device locks (no deadlock between batches); a device's
    // reports keep their order (the sort is stable).
    const order = batch.map((item, index) => ({ item, index }));
    order.sort((a, b) => a.item.report.device.id - b.item.report.device.id);
    const outcomes: Outcome<boolean>[] = new Array<Outcome<boolean>>(batch.length);
    try {
      const applied = await applyBatch(
        db,
        order.map(({ item }) => item),
      );
      order.forEach(({ item, index }, position) => {
        const row = applied[position];
        outcomes[index] = row
          ? { ok: true, value: remember(item, row) }
          : { ok: false, error: new Error('The batch returned no row for this report') };
      });
      return outcomes;
    } catch (error) {
      for (const { item } of order) cache.forget(item.report.device.id);
      if (batch.length === 1 || isDatabaseUnavailable(error)) throw error;
    }
    // The batch failed as a whole: each report alone, in order, so only the one the database
    // refuses fails.
    for (const { item, index } of order) {
      try {
        const [row] = await applyBatch(db, [item]);
        outcomes[index] = row
          ? { ok: true, value: remember(item, row) }
          : { ok: false, error: new Error('No row for this report') };
      } catch (error) {
        outcomes[index] = { ok: false, error };
      }
    }
    return outcomes;
  };

  const commits = createGroupCommit<Queued, boolean>(write, {
    maxInFlight: options.maxInFlight ?? 4,
    maxBatch: options.maxBatch ?? 500,
    keyOf: (item) => item.report.device.id,
  });

  // Devices with a report queued or being written: a report arriving meanwhile is not answered
  // from the cache, whose entry predates the one waiting (a device reverting a change).
  const writing = new Map<number, number>();
  const track = (deviceId: number, delta: number): void => {
    const count = (writing.get(deviceId) ?? 0) + delta;
    if (count === 0) writing.delete(deviceId);
    else writing.set(deviceId, count);
  };

  return {
    async apply(report) {
      const columnsText = JSON.stringify(report.columns);
      const appsText = report.apps ? JSON.stringify(report.apps) : null;
      // A sequence of JSON texts reads back one way only. The agent profile is no part of it:
      // an agent sends it only when it changes.
      const digest = createHash('sha1')
        .update(`${JSON.stringify(report.device.uuid)}${columnsText}${appsText ?? 'null'}`)
        .digest('base64');
      const { id } = report.device;
      if (report.agentProfile === undefined && !writing.has(id) && cache.unchanged(id, digest)) {
        return true;
      }
      // Taken before the batch reads anything: a change racing it makes the entry stale.
      const ticket = cache.begin();
      track(id, 1);
      try {
        return await commits.add({ report, columnsText, appsText, digest, ticket });
      } finally {
        track(id, -1);
      }
    },
  };
};
