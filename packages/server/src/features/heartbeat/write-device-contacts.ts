import { metricReadings } from '@flotilla/shared/device-metrics/metric-history';
import {
  pollIntervalLimits,
  pollIntervalPattern,
  pollIntervalVarNames,
} from '@flotilla/shared/device-protocol/poll-interval';
import type { Queryable, SqlValue } from '../../infra/db/database.js';
import { heartbeatTimings } from '../../model/definitions/device-status.js';

// Device readings a state report carries that are kept at most once per metricsIntervalMs per
// device (cpu_id and is_undervolted are facts and alerts, not readings, so they are never dropped).
export const metricColumns = [
  'memory_usage',
  'memory_total',
  'storage_block_device',
  'storage_usage',
  'storage_total',
  'cpu_usage',
  'cpu_temp',
] as const;

export type MetricColumn = (typeof metricColumns)[number];
export type Metrics = Partial<Record<MetricColumn, SqlValue>>;

export const metricsIntervalMs = 60_000;

// A device row a flush wrote, and the last contact it stores since.
export type WrittenContact = { id: number; contactAt: Date | null };

// One device's contact: when, and the metrics reported then (if any).
export type DeviceContact = {
  deviceId: number;
  at: Date;
  metrics?: { at: Date; values: Metrics };
};

const intervalVar = (table: string, owner: string, ownerSql: string): string =>
  `(SELECT v."value"::bigint FROM "${table}" v WHERE v."${owner}" = ${ownerSql} AND v."name" IN ('${pollIntervalVarNames.join("', '")}') AND v."value" ~ '${pollIntervalPattern}' ORDER BY v."name" LIMIT 1)`;

// The device's poll interval: its own config variable, else its fleet's, else the default, within
// the limits of the poll-interval rule (clampPollInterval, the same rule in SQL).
const pollIntervalSql = (row: string): string =>
  `least(greatest(coalesce(${intervalVar('device_config_variable', 'device', `${row}."id"`)}, ${intervalVar('application_config_variable', 'application', `${row}."belongs_to__application"`)}, ${pollIntervalLimits.defaultMs}), ${pollIntervalLimits.minimumMs}), ${pollIntervalLimits.maximumMs})::integer`;

const at = 'u."at"';
// At most one contact write per device per 10 s, decided by the row so every process agrees; a
// contact after the device's cloudlink was lost is always written, since it ends the loss.
const lostBefore = `d."cloudlink_lost_at" < ${at}`;
const contactDue = `(d."last_contact_at" IS NULL OR d."last_contact_at" <= ${at} - ${heartbeatTimings.contactWriteIntervalMs} * interval '1 millisecond' OR coalesce(${lostBefore}, false))`;
// At most one metrics write per device per interval, likewise.
const metricsDue = `(u."metrics_at" IS NOT NULL AND (d."metrics_reported_at" IS NULL OR d."metrics_reported_at" <= u."metrics_at" - ${metricsIntervalMs} * interval '1 millisecond'))`;
const ifContact = (value: string, column: string): string =>
  `CASE WHEN ${contactDue} THEN ${value} ELSE d."${column}" END`;
const metricAssignment = (column: MetricColumn): string =>
  `"${column}" = CASE WHEN ${metricsDue} AND u."metrics" ? '${column}' THEN m."${column}" ELSE d."${column}" END`;

// The history columns of device_metric_sample (0018-device-metric-history.sql).
const historyColumns = metricReadings satisfies readonly MetricColumn[];

// Readings kept in device_metric_sample, by default (FLOTILLA_METRICS_RETENTION_HOURS).
export const defaultMetricsRetentionMs = 24 * 3_600_000;

const historyList = historyColumns.map((column) => `"${column}"`).join(', ');

// Records authenticated contacts of devices (target-state polls, state reports, log streams,
// cloudlink) and the metrics that came with them, for many devices in one statement: the
// heartbeat fields are derived from last_contact_at (model/definitions/device-status.ts). The
// "since" columns restart when the device had already timed out (online_since) or gone offline
// (connected_since) by the row's own deadlines, which a lost cloudlink cuts short. Rows are taken in
// id order, so concurrent writers lock them in the same order. Each metrics write also appends
// the device's readings to its history and drops its readings older than `retentionMs` before
// this one, in the same statement (no extra round trip per report). Resolves to the rows written,
// each with the contact it now stores.
export const writeDeviceContacts = async (
  db: Queryable,
  contacts: readonly DeviceContact[],
  retentionMs: number = defaultMetricsRetentionMs,
): Promise<WrittenContact[]> => {
  if (contacts.length === 0) return [];
  const sorted = [...contacts].sort((a, b) => a.deviceId - b.deviceId);
  const { rows } = await db.query<WrittenContact>(
    `WITH "written" AS (
     UPDATE "device" d SET
       "last_contact_at" = ${ifContact(at, 'last_contact_at')},
       "poll_interval_ms" = ${ifContact(pollIntervalSql('d'), 'poll_interval_ms')},
       "online_since" = CASE WHEN ${contactDue} AND (d."online_until" IS NULL OR d."online_until" < ${at})
         THEN ${at} ELSE d."online_since" END,
       "connected_since" = CASE WHEN ${contactDue} AND (d."timeout_until" IS NULL OR d."timeout_until" < ${at})
         THEN ${at} ELSE d."connected_since" END,
       "cloudlink_lost_at" = CASE WHEN ${lostBefore} THEN NULL ELSE d."cloudlink_lost_at" END,
       ${metricColumns.map(metricAssignment).join(',\n       ')},
       "metrics_reported_at" = CASE WHEN ${metricsDue} THEN u."metrics_at" ELSE d."metrics_reported_at" END
     FROM unnest($1::integer[], $2::timestamptz[], $3::timestamptz[], $4::jsonb[])
            AS u("id", "at", "metrics_at", "metrics")
     CROSS JOIN LATERAL jsonb_populate_record(NULL::"device", u."metrics") m
     WHERE d."id" = u."id" AND (${contactDue} OR ${metricsDue})
     -- RETURNING sees the updated row: its readings were written at metrics_at when they match.
     RETURNING d."id", d."last_contact_at" AS "contactAt", d."metrics_reported_at" AS "sampled_at",
       (u."metrics_at" IS NOT NULL AND d."metrics_reported_at" = u."metrics_at") AS "sampled",
       ${historyColumns.map((column) => `d."${column}"`).join(', ')}
   ), "appended" AS (
     INSERT INTO "device_metric_sample" ("device", "at", ${historyList})
     SELECT w."id", w."sampled_at", ${historyColumns.map((column) => `w."${column}"`).join(', ')}
       FROM "written" w WHERE w."sampled"
     ON CONFLICT ("device", "at") DO NOTHING
   ), "trimmed" AS (
     DELETE FROM "device_metric_sample" s USING "written" w
      WHERE w."sampled" AND s."device" = w."id"
        AND s."at" < w."sampled_at" - $5::bigint * interval '1 millisecond'
   )
   SELECT "id", "contactAt" FROM "written"`,
    [
      sorted.map((contact) => contact.deviceId),
      sorted.map((contact) => contact.at),
      sorted.map((contact) => contact.metrics?.at ?? null),
      sorted.map((contact) => (contact.metrics ? JSON.stringify(contact.metrics.values) : null)),
      retentionMs,
    ],
  );
  return rows;
};
