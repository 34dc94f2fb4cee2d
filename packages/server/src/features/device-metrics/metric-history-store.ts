import { type MetricPoint, metricReadings } from '@flotilla/shared/device-metrics/metric-history';
import type { Queryable } from '../../infra/db/database.js';
import type { MetricsQuery } from './metrics-query.js';

// Reads device_metric_sample (0018-device-metric-history.sql; written by the heartbeat batch,
// features/heartbeat/write-device-contacts.ts). The range is cut into `points` equal buckets and
// each bucket's readings are averaged, so an answer never holds more than `points` rows however
// many readings the range has; it scans only this device's rows within the range (primary key).
export const readMetricHistory = async (
  db: Queryable,
  deviceId: number,
  query: MetricsQuery,
): Promise<MetricPoint[]> => {
  const bucketMs = Math.max(
    1,
    Math.ceil((query.until.getTime() - query.since.getTime()) / query.points),
  );
  const average = (column: string): string => `round(avg("${column}"))::float8 AS "${column}"`;
  const { rows } = await db.query<Omit<MetricPoint, 'at'> & { at: Date }>(
    `SELECT max("at") AS "at",
            ${metricReadings.map(average).join(', ')}
       FROM "device_metric_sample"
      WHERE "device" = $1 AND "at" >= $2 AND "at" <= $3
      GROUP BY floor(extract(epoch FROM "at" - $2::timestamptz) * 1000 / $4)
      ORDER BY 1`,
    [deviceId, query.since, query.until, bucketMs],
  );
  return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
};

// Deletes every reading older than `before` (devices that stopped reporting; the contact batch
// trims the others as they report).
export const sweepMetricHistory = async (db: Queryable, before: Date): Promise<void> => {
  await db.query(`DELETE FROM "device_metric_sample" WHERE "at" < $1`, [before]);
};
