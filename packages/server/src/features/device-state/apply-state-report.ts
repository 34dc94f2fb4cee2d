import { createHash } from 'node:crypto';
import type { Queryable, SqlValue } from '../../infra/db/database.js';
import { metricColumns, type Metrics } from '../heartbeat/write-device-contacts.js';
import type { StateReportCache } from './state-report-cache.js';
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
// (migrations/0009-apply-state-report.sql holds the rules): device columns, update status and its
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

// The same, unless this process applied the very same report (metrics aside) to this device last
// and nothing it depends on changed since (state-report-cache.ts): applying it again would write
// nothing, so the database is not asked. A report naming another fleet's apps (a public host OS
// fleet) is always applied: only the device's own fleet is watched.
export const applyStateReportCached = async (
  db: Queryable,
  cache: StateReportCache,
  device: { id: number; uuid: string },
  columns: Record<string, SqlValue>,
  apps: DeviceReport['apps'],
  now: Date,
): Promise<boolean> => {
  const columnsText = JSON.stringify(columns);
  const appsText = apps ? JSON.stringify(apps) : null;
  // A sequence of JSON texts reads back one way only.
  const digest = createHash('sha1')
    .update(`${JSON.stringify(device.uuid)}${columnsText}${appsText ?? 'null'}`)
    .digest('base64');
  if (cache.unchanged(device.id, digest)) return true;
  const ticket = cache.begin();
  const { rows } = await db.query<{ own: boolean; fleetId: number; fleetUuid: string }>(
    `SELECT flotilla_apply_state_report($1, $2, $3, $4::jsonb, $5::json) AS "own",
            a."id" AS "fleetId", a."uuid" AS "fleetUuid"
       FROM "device" d JOIN "application" a ON a."id" = d."belongs_to__application"
      WHERE d."id" = $1`,
    [device.id, device.uuid, now, columnsText, appsText],
  );
  const applied = rows[0];
  if (applied?.own !== true) {
    cache.forget(device.id);
    return false;
  }
  const ownFleetOnly = Object.keys(apps ?? {}).every((uuid) => uuid === applied.fleetUuid);
  if (ownFleetOnly) cache.store(ticket, device.id, { digest, fleetId: applied.fleetId });
  else cache.forget(device.id);
  return true;
};

// A Flotilla agent's profile (what it runs, its CPU, the settings it applies). Agents send it
// with their first report and when it changes, so it is written apart from the report's columns,
// and only when it differs from the stored one.
export const applyAgentProfile = async (
  db: Queryable,
  device: { id: number; uuid: string },
  profile: DeviceReport['agent_profile'],
): Promise<void> => {
  if (profile === undefined) return;
  await db.query(
    `UPDATE "device" SET "agent_profile" = $3::jsonb
      WHERE "id" = $1 AND "uuid" = $2 AND "agent_profile" IS DISTINCT FROM $3::jsonb`,
    [device.id, device.uuid, JSON.stringify(profile)],
  );
};
