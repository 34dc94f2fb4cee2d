import type { Queryable, SqlValue } from '../../infra/db/database.js';
import { metricColumns, type Metrics } from '../heartbeat/write-device-contacts.js';
import {
  type DeviceColumn,
  type DeviceReport,
  deviceReportFields,
} from '@flotilla/shared/device-protocol/state-report-v3';

const isMetric = (column: DeviceColumn): column is (typeof metricColumns)[number] =>
  metricColumns.some((metric) => metric === column);

// A report's device columns: the readings (kept at most once a minute, batched with the
// device's contact) and the rest (written with the report).
export const splitReport = (
  report: DeviceReport,
): { columns: Record<string, SqlValue>; metrics: Metrics } => {
  const columns: Record<string, SqlValue> = {};
  const metrics: Metrics = {};
  for (const column of Object.keys(deviceReportFields) as DeviceColumn[]) {
    const value = report[column];
    if (value === undefined) continue;
    if (isMetric(column)) metrics[column] = value;
    else columns[column] = value;
  }
  return { columns, metrics };
};

// Applies one device's state report in one round trip and one commit
// (migrations/0009-apply-state-report.sql holds the rules; the route batches reports of many
// devices through state-report-writer.ts): device columns, update status and its
// event time, the running release, and the image installs when apps are reported (skipped when
// nothing they depend on changed since the last report computed them). Only what differs from the
// stored rows is written. False, with nothing written, when the device with this id does not have
// this uuid.
export const applyStateReport = async (
  db: Queryable,
  device: { id: number; uuid: string },
  columns: Record<string, SqlValue>,
  apps: DeviceReport['apps'],
  now: Date,
): Promise<boolean> => {
  const { rows } = await db.query<{ own: boolean }>(
    'SELECT flotilla_apply_state_report($1, $2, $3, $4::jsonb, $5::json) AS "own"',
    [device.id, device.uuid, now, JSON.stringify(columns), apps ? JSON.stringify(apps) : null],
  );
  return rows[0]?.own === true;
};
