import { z } from 'zod';

// GET /device/v2/:uuid/metrics: a device's recent metric readings (server
// features/device-metrics), read by the console's metrics card.

// At most this many points per answer; a longer range is averaged into this many buckets.
export const maxMetricPoints = 500;
export const defaultMetricPoints = 120;
// The console's charts show this much history.
export const metricHistoryWindowMs = 24 * 3_600_000;

export const metricHistoryPath = (uuid: string): string =>
  `/device/v2/${encodeURIComponent(uuid)}/metrics`;

const reading = z.number().nullable();

// One point: the readings of a bucket (averaged when it holds several), at its newest reading.
export const metricPoint = z.object({
  at: z.string(),
  cpu_usage: reading,
  cpu_temp: reading,
  memory_usage: reading,
  memory_total: reading,
  storage_usage: reading,
  storage_total: reading,
});
export type MetricPoint = z.infer<typeof metricPoint>;

export const metricHistory = z.object({
  since: z.string(),
  until: z.string(),
  points: z.array(metricPoint),
});
export type MetricHistory = z.infer<typeof metricHistory>;
