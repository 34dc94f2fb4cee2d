import { z } from 'zod';

// One log line as devices send it (balena-supervisor and our agent): {message, timestamp,
// isSystem?, isStdErr?, serviceId?}; extra keys (imageId...) are ignored.
const incomingLine = z.object({
  message: z.string(),
  timestamp: z.union([z.number(), z.string()]).optional(),
  isSystem: z.boolean().optional(),
  isStdErr: z.boolean().optional(),
  serviceId: z.number().int().min(-2_147_483_648).max(2_147_483_647).nullable().optional(),
});

// Longer messages are cut here; a line is stored, never refused, for its length.
export const maxMessageLength = 10_000;

export type StoredLine = {
  message: string;
  // Milliseconds since the epoch, as the device stamped it.
  timestamp: number;
  isSystem: boolean;
  isStdErr: boolean;
  serviceId: number | null;
};

const deviceTime = (value: number | string | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? Math.trunc(ms) : fallback;
};

// A parsed JSON value as a storable line, or undefined when it is not a log line. PostgreSQL
// text cannot hold NUL, so it is dropped.
export const toStoredLine = (value: unknown, now: number): StoredLine | undefined => {
  const parsed = incomingLine.safeParse(value);
  if (!parsed.success) return undefined;
  const line = parsed.data;
  return {
    message: line.message.replaceAll('\u0000', '').slice(0, maxMessageLength),
    timestamp: deviceTime(line.timestamp, now),
    isSystem: line.isSystem ?? false,
    isStdErr: line.isStdErr ?? false,
    serviceId: line.serviceId ?? null,
  };
};

// One NDJSON text line as a storable line, or undefined when it is not one.
export const parseLogLine = (text: string, now: number): StoredLine | undefined => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return toStoredLine(value, now);
};

// A line as GET /device/v2/:uuid/logs answers it (wire contract section 6).
export type LogLineOut = {
  message: string;
  createdAt: number;
  timestamp: number;
  isSystem: boolean;
  isStdErr: boolean;
  serviceId?: number;
};

export type LogRow = {
  id: number;
  created_at: number;
  timestamp: number;
  message: string;
  is_system: boolean;
  is_stderr: boolean;
  service_id: number | null;
  // The process that received the line and its order there (null for lines stored before 0010).
  origin: number | null;
  origin_seq: number | null;
};

// A line as ingest hands it on, to live streams and to storage alike. `seq` orders the lines
// this process received, across devices (log-intake.ts).
export type IngestedLine = { deviceId: number; createdAt: number; seq: number; line: StoredLine };

export const toLineOut = (row: LogRow): LogLineOut => ({
  message: row.message,
  createdAt: row.created_at,
  timestamp: row.timestamp,
  isSystem: row.is_system,
  isStdErr: row.is_stderr,
  ...(row.service_id === null ? {} : { serviceId: row.service_id }),
});

export const ingestedLineOut = ({ createdAt, line }: IngestedLine): LogLineOut => ({
  message: line.message,
  createdAt,
  timestamp: line.timestamp,
  isSystem: line.isSystem,
  isStdErr: line.isStdErr,
  ...(line.serviceId === null ? {} : { serviceId: line.serviceId }),
});
