// GET /device/v2/:uuid/metrics: a device's recent metric readings (server
// features/device-metrics), read by the console's metrics card. Plain types and a hand-written
// guard, no zod: the console loads this, and zod's compiled parsers need eval, which its
// Content-Security-Policy forbids.

// At most this many points per answer; a longer range is averaged into this many buckets.
export const maxMetricPoints = 500;
export const defaultMetricPoints = 120;

export const metricHistoryPath = (uuid: string): string =>
  `/device/v2/${encodeURIComponent(uuid)}/metrics`;

export const metricReadings = [
  'cpu_usage',
  'cpu_temp',
  'memory_usage',
  'memory_total',
  'storage_usage',
  'storage_total',
] as const;
export type MetricReading = (typeof metricReadings)[number];

// One point: the readings of a bucket (averaged when it holds several), at its newest reading;
// null where the device reported none.
export type MetricPoint = { at: string } & Record<MetricReading, number | null>;

export type MetricHistory = { since: string; until: string; points: MetricPoint[] };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const isPoint = (value: unknown): value is MetricPoint =>
  isRecord(value) &&
  typeof value.at === 'string' &&
  metricReadings.every((name) => value[name] === null || typeof value[name] === 'number');

export const isMetricHistory = (value: unknown): value is MetricHistory =>
  isRecord(value) &&
  typeof value.since === 'string' &&
  typeof value.until === 'string' &&
  Array.isArray(value.points) &&
  value.points.every(isPoint);
