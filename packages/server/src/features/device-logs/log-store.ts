import type { Queryable } from '../../infra/db/database.js';
import type { IngestedLine, LogRow } from './log-line.js';

// SQL over device_log (0004-device-protocol.sql; partitioned by day since 0077).

// The NOTIFY channel: each insert announces "<origin>:<device>,<device>,..." (the devices that
// got lines, at most notifyDevices per notification: well below the 8000-byte payload limit).
// Other processes read those devices' new rows; the origin ignores its own.
export const logChannel = 'device_logs';
const notifyDevices = 500;

export const logNotifications = (origin: number, devices: readonly number[]): string[] => {
  const payloads: string[] = [];
  for (let index = 0; index < devices.length; index += notifyDevices) {
    payloads.push(`${origin}:${devices.slice(index, index + notifyDevices).join(',')}`);
  }
  return payloads;
};

export const parseLogNotification = (
  payload: string,
): { origin: number; devices: number[] } | undefined => {
  const [origin, list] = payload.split(':');
  if (origin === undefined || list === undefined || !/^\d+$/.test(origin)) return undefined;
  const devices = list.split(',').map(Number).filter(Number.isSafeInteger);
  return { origin: Number(origin), devices };
};

const rowColumns = `"id", "created_at", "timestamp", "message", "is_system", "is_stderr", "service_id", "origin", "origin_seq"`;

// Announces stored lines to other processes on the message bus (NATS), after the insert has
// committed; must not throw (a lost announcement is covered by the subscribers' reset).
export type LogAnnouncer = (channel: string, payloads: readonly string[]) => void;

const insertColumns = `"device", "created_at", "timestamp", "message", "is_system", "is_stderr", "service_id", "origin_seq", "origin"`;
const insertRows = `SELECT *, $9::bigint
         FROM unnest($1::integer[], $2::bigint[], $3::bigint[], $4::text[], $5::boolean[], $6::boolean[], $7::integer[], $8::bigint[])`;

// Stores lines of any number of devices, in order (ids follow the array), in one statement,
// and tells other processes once it commits: a NOTIFY in the same statement, or with `announce`
// (the NATS bus) a publication after it. Fails whole when a device no longer exists.
export const insertLogLines = async (
  db: Queryable,
  origin: number,
  lines: readonly IngestedLine[],
  announce?: LogAnnouncer,
): Promise<void> => {
  if (lines.length === 0) return;
  const devices = [...new Set(lines.map((ingested) => ingested.deviceId))];
  const values = [
    lines.map((ingested) => ingested.deviceId),
    lines.map((ingested) => ingested.createdAt),
    lines.map((ingested) => ingested.line.timestamp),
    lines.map((ingested) => ingested.line.message),
    lines.map((ingested) => ingested.line.isSystem),
    lines.map((ingested) => ingested.line.isStdErr),
    lines.map((ingested) => ingested.line.serviceId),
    lines.map((ingested) => ingested.seq),
    origin,
  ];
  if (announce) {
    await db.query(`INSERT INTO "device_log" (${insertColumns}) ${insertRows}`, values);
    announce(logChannel, logNotifications(origin, devices));
    return;
  }
  await db.query(
    `WITH "inserted" AS (
       INSERT INTO "device_log" (${insertColumns}) ${insertRows}
     )
     SELECT pg_notify($10, p) FROM unnest($11::text[]) AS p`,
    [...values, logChannel, logNotifications(origin, devices)],
  );
};

// Deletes every line older than each device's `retention` newest (the per-device cap; whole
// days go by dropping partitions, log-partitions.ts). The cutoffs are computed once, up front:
// inlined, PostgreSQL would compute each again for every partition.
export const trimLogs = async (
  db: Queryable,
  devices: readonly number[],
  retention: number,
): Promise<void> => {
  await db.query(
    `WITH c AS MATERIALIZED (
       SELECT d."device",
              (SELECT x."id" FROM "device_log" x WHERE x."device" = d."device"
                ORDER BY x."id" DESC OFFSET $2 LIMIT 1) AS "cutoff"
         FROM unnest($1::integer[]) AS d("device")
     )
     DELETE FROM "device_log" l USING c
      WHERE l."device" = c."device" AND l."id" <= c."cutoff"`,
    [devices, retention],
  );
};

export type HistoryQuery = {
  deviceId: number;
  // The newest `count` lines...
  count: number;
  // ...received at or after this time (ms), when given...
  start: number | undefined;
  // ...and not after this id (so a stream can continue exactly where its history ended).
  upToId?: number;
};

// History, oldest first.
export const readHistory = async (db: Queryable, query: HistoryQuery): Promise<LogRow[]> => {
  if (query.count <= 0) return [];
  const { rows } = await db.query<LogRow>(
    `SELECT * FROM (
       SELECT ${rowColumns} FROM "device_log"
        WHERE "device" = $1 AND ($2::bigint IS NULL OR "created_at" >= $2) AND ($4::bigint IS NULL OR "id" <= $4)
        ORDER BY "id" DESC LIMIT $3
     ) newest ORDER BY "id"`,
    [query.deviceId, query.start ?? null, query.count, query.upToId ?? null],
  );
  return rows;
};

// The id of the device's newest line, 0 when it has none.
export const newestLogId = async (db: Queryable, deviceId: number): Promise<number> => {
  const { rows } = await db.query<{ id: number }>(
    `SELECT coalesce(max("id"), 0)::bigint AS "id" FROM "device_log" WHERE "device" = $1`,
    [deviceId],
  );
  return rows[0]?.id ?? 0;
};

// The order (origin_seq) of the newest line of the device that `origin` received, among the
// lines up to `upToId`; 0 when there is none.
export const newestOriginSeq = async (
  db: Queryable,
  query: { deviceId: number; origin: number; upToId: number },
): Promise<number> => {
  const { rows } = await db.query<{ seq: number }>(
    `SELECT coalesce(max("origin_seq"), 0)::bigint AS "seq" FROM "device_log"
      WHERE "device" = $1 AND "origin" = $2 AND "id" <= $3`,
    [query.deviceId, query.origin, query.upToId],
  );
  return rows[0]?.seq ?? 0;
};

// Lines after `afterId` not received by `exceptOrigin` (this process, which sent those live),
// oldest first, at most `limit`.
export const readLogsAfter = async (
  db: Queryable,
  query: { deviceId: number; afterId: number; exceptOrigin: number; limit: number },
): Promise<LogRow[]> => {
  const { rows } = await db.query<LogRow>(
    `SELECT ${rowColumns} FROM "device_log"
      WHERE "device" = $1 AND "id" > $2 AND "origin" IS DISTINCT FROM $3
      ORDER BY "id" LIMIT $4`,
    [query.deviceId, query.afterId, query.exceptOrigin, query.limit],
  );
  return rows;
};

export const deleteLogs = async (db: Queryable, deviceId: number): Promise<void> => {
  await db.query(`DELETE FROM "device_log" WHERE "device" = $1`, [deviceId]);
};
