import { defaultIngestLimits, type IngestLimits } from './log-ingest.js';

// Tunables of the device-logs feature. Only the retention is configurable in production.
export type DeviceLogOptions = {
  // Lines kept per device (config.logRetention); history `count` is capped to it.
  retention: number;
  // A bare "\n" on open log streams this often.
  keepAliveMs: number;
  // The ingest batch is written at least this often...
  flushMs: number;
  // ...or as soon as this many lines wait.
  maxBatchLines: number;
  ingest: IngestLimits;
};

export const deviceLogOptions = (
  retention: number,
  overrides: Partial<DeviceLogOptions> = {},
): DeviceLogOptions => ({
  retention,
  keepAliveMs: 12_000,
  flushMs: 250,
  maxBatchLines: 2000,
  ingest: defaultIngestLimits,
  ...overrides,
});
