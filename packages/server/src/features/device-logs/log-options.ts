import type { Schedule } from '../../infra/scheduling/periodic-task.js';
import { defaultIngestLimits, type IngestLimits } from './log-ingest.js';

// Tunables of the device-logs feature. Only the retention is configurable in production.
export type DeviceLogOptions = {
  // Lines kept per device (config.logRetention); history `count` is capped to it.
  retention: number;
  // A device is trimmed back to `retention` once it has this many more lines (log-writer.ts).
  trimSlack: number;
  // A bare "\n" on open log streams this often.
  keepAliveMs: number;
  // Storage (log-writer.ts): inserts in flight at once, each for its share of the devices...
  lanes: number;
  // ...an idle one waiting this long for more lines...
  flushMs: number;
  // ...or storing at once when this many wait.
  maxBatchLines: number;
  // Lines waiting to be stored, at most (the oldest are dropped beyond it).
  maxQueuedLines: number;
  // Retry delays while the database is unavailable.
  retryMinMs: number;
  retryMaxMs: number;
  ingest: IngestLimits;
  // Day partitions (log-partitions.ts): kept created this many days ahead, checked this often
  // (and once when the server is ready), on this schedule (tests drive it by hand).
  partitionAheadDays: number;
  partitionCheckMs: number;
  partitionSchedule: Schedule | undefined;
};

export const deviceLogOptions = (
  configured: number,
  overrides: Partial<DeviceLogOptions> = {},
): DeviceLogOptions => {
  const retention = overrides.retention ?? configured;
  return {
    retention,
    trimSlack: Math.max(1, Math.ceil(retention / 4)),
    keepAliveMs: 12_000,
    lanes: 2,
    flushMs: 20,
    maxBatchLines: 2000,
    maxQueuedLines: 100_000,
    retryMinMs: 100,
    retryMaxMs: 5_000,
    ingest: defaultIngestLimits,
    partitionAheadDays: 7,
    partitionCheckMs: 3_600_000,
    partitionSchedule: undefined,
    ...overrides,
  };
};
