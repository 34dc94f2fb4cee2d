import { z } from 'zod';

// How long device log lines are kept: whole days of them are dropped once older than this
// (features/device-logs/log-partitions.ts), on top of the per-device line cap
// (FLOTILLA_LOG_RETENTION, config.ts).
export type DeviceLogConfig = { retentionDays: number };

// The environment variables, spread into the server's one configuration schema.
export const deviceLogEnv = {
  FLOTILLA_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
};

type DeviceLogValues = { FLOTILLA_LOG_RETENTION_DAYS: number };

export const deviceLogConfigOf = (values: DeviceLogValues): DeviceLogConfig => ({
  retentionDays: values.FLOTILLA_LOG_RETENTION_DAYS,
});
