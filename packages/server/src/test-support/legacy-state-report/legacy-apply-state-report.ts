import type { Database, Queryable, SqlValue } from '../../infra/db/database.js';
import { shouldBeRunningRelease } from '../../model/definitions/device-status.js';
import {
  installRows,
  releaseOf,
  replaceInstalls,
  resolveReleases,
} from './legacy-reported-installs.js';
import {
  type AppReport,
  type DeviceColumn,
  type DeviceReport,
  deviceReportFields,
} from '@flotilla/shared/device-protocol/state-report-v3';
import {
  metricColumns,
  metricsIntervalMs,
} from '../../features/heartbeat/write-device-contacts.js';

// The state report as it was applied before migrations/0009-apply-state-report.sql: a statement
// per step in one transaction. Kept, unchanged but for imports, as the reference the differential
// test (features/device-state/state-report-equivalence.int.test.ts) compares the one-statement
// version against.

type DeviceRow = { app_uuid: string; target_release: number | null; target_commit: string | null };

// At most one metrics write per device per interval, decided by the row so every process agrees.
const claimMetrics = async (tx: Queryable, deviceId: number, now: Date): Promise<boolean> => {
  const { rowCount } = await tx.query(
    `UPDATE "device" SET "metrics_reported_at" = $2
      WHERE "id" = $1 AND ("metrics_reported_at" IS NULL OR "metrics_reported_at" <= $2::timestamptz - $3 * interval '1 millisecond')`,
    [deviceId, now, metricsIntervalMs],
  );
  return rowCount > 0;
};

// The fleet release's update status when the device reports none of its own: the target
// release's entry first, then the running one's, then any.
const reportedUpdateStatus = (
  fleetApp: AppReport | undefined,
  targetCommit: string | null,
): string | null | undefined => {
  const releases = fleetApp?.releases ?? {};
  const preferred = [targetCommit, fleetApp?.release_uuid, ...Object.keys(releases)];
  for (const commit of preferred) {
    if (typeof commit !== 'string') continue;
    const status = releases[commit]?.update_status;
    if (status !== undefined) return status;
  }
  return undefined;
};

const reportedColumns = (report: DeviceReport): Map<DeviceColumn, SqlValue> => {
  const columns = new Map<DeviceColumn, SqlValue>();
  for (const column of Object.keys(deviceReportFields) as DeviceColumn[]) {
    const value = report[column];
    if (value !== undefined) columns.set(column, value);
  }
  return columns;
};

const updateDevice = async (
  tx: Queryable,
  deviceId: number,
  columns: ReadonlyMap<string, SqlValue>,
  now: Date,
): Promise<void> => {
  if (columns.size === 0) return;
  const values: SqlValue[] = [deviceId];
  const assignments: string[] = [];
  for (const [column, value] of columns) {
    values.push(value);
    assignments.push(`"${column}" = $${values.length}`);
    if (column === 'update_status') {
      values.push(now);
      // The status just set is $n-1; the event moves only when it changes.
      assignments.push(
        `"last_update_status_event" = CASE WHEN "update_status" IS DISTINCT FROM $${values.length - 1}::text THEN $${values.length}::timestamptz ELSE "last_update_status_event" END`,
      );
    }
  }
  await tx.query(`UPDATE "device" SET ${assignments.join(', ')} WHERE "id" = $1`, values);
};

// Applies one device's state report: device columns (metrics throttled), update status and its
// event time, the running release, and the image installs when apps are reported (the apps
// section is complete whenever present, so installs it no longer lists are removed).
export const applyStateReport = async (
  db: Database,
  device: { id: number; applicationId: number },
  report: DeviceReport,
  now: Date,
): Promise<void> => {
  await db.transaction(async (tx) => {
    // Locks the row: two reports of one device never interleave.
    const { rows } = await tx.query<DeviceRow>(
      `SELECT a."uuid" AS "app_uuid", ${shouldBeRunningRelease('"d"')} AS "target_release",
              (SELECT r."commit" FROM "release" r WHERE r."id" = ${shouldBeRunningRelease('"d"')}) AS "target_commit"
         FROM "device" d JOIN "application" a ON a."id" = d."belongs_to__application"
        WHERE d."id" = $1 FOR UPDATE OF d`,
      [device.id],
    );
    const current = rows[0];
    if (!current) return;

    const columns: Map<string, SqlValue> = reportedColumns(report);
    if (metricColumns.some((column) => columns.has(column))) {
      if (!(await claimMetrics(tx, device.id, now))) {
        for (const column of metricColumns) columns.delete(column);
      }
    }
    const fleetApp = report.apps?.[current.app_uuid];
    if (!columns.has('update_status')) {
      const status = reportedUpdateStatus(fleetApp, current.target_commit);
      if (status !== undefined) columns.set('update_status', status);
    }

    if (report.apps) {
      const resolved = await resolveReleases(tx, device.applicationId, report.apps);
      if (fleetApp?.release_uuid === null) columns.set('is_running__release', null);
      else if (typeof fleetApp?.release_uuid === 'string') {
        const running = releaseOf(resolved, current.app_uuid, fleetApp.release_uuid);
        if (running) columns.set('is_running__release', running.id);
      }
      await updateDevice(tx, device.id, columns, now);
      const installs = await installRows(tx, report.apps, resolved, current.target_release);
      await replaceInstalls(tx, device, installs, now);
    } else {
      await updateDevice(tx, device.id, columns, now);
    }
  });
};
