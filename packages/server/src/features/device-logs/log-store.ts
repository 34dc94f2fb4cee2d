import type { Database, Queryable } from '../../infra/db/database.js';
import type { LogRow, StoredLine } from './log-line.js';

// SQL over device_log (0004-device-protocol.sql).

// The NOTIFY channel: payload = device id; listeners re-read that device's lines past the last
// id they sent, so a stream on one process sees lines ingested by another.
export const logChannel = 'device_logs';

export type PendingLine = { deviceId: number; createdAt: number; line: StoredLine };

const rowColumns = `"id", "created_at", "timestamp", "message", "is_system", "is_stderr", "service_id"`;

// Inserts lines of any number of devices in one transaction, trims each device back to the
// newest `retention` lines and notifies listeners once per device (on commit). Lines of a device
// deleted meanwhile are skipped rather than failing the batch.
export const insertLogLines = async (
  db: Database,
  lines: readonly PendingLine[],
  retention: number,
): Promise<number[]> => {
  if (lines.length === 0) return [];
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ device: number }>(
      `WITH inserted AS (
         INSERT INTO "device_log" ("device", "created_at", "timestamp", "message", "is_system", "is_stderr", "service_id")
         SELECT u."device", u."created_at", u."timestamp", u."message", u."is_system", u."is_stderr", u."service_id"
           FROM unnest($1::integer[], $2::bigint[], $3::bigint[], $4::text[], $5::boolean[], $6::boolean[], $7::integer[])
             WITH ORDINALITY AS u("device", "created_at", "timestamp", "message", "is_system", "is_stderr", "service_id", "n")
           JOIN "device" d ON d."id" = u."device"
          ORDER BY u."n"
         RETURNING "device"
       )
       SELECT DISTINCT "device" FROM inserted`,
      [
        lines.map((pending) => pending.deviceId),
        lines.map((pending) => pending.createdAt),
        lines.map((pending) => pending.line.timestamp),
        lines.map((pending) => pending.line.message),
        lines.map((pending) => pending.line.isSystem),
        lines.map((pending) => pending.line.isStdErr),
        lines.map((pending) => pending.line.serviceId),
      ],
    );
    const devices = rows.map((row) => row.device);
    if (devices.length === 0) return [];
    await trimLogs(tx, devices, retention);
    await tx.query(`SELECT pg_notify($1, d::text) FROM unnest($2::integer[]) AS d`, [
      logChannel,
      devices,
    ]);
    return devices;
  });
};

// Deletes every line older than each device's `retention` newest.
export const trimLogs = async (
  db: Queryable,
  devices: readonly number[],
  retention: number,
): Promise<void> => {
  await db.query(
    `DELETE FROM "device_log" l
      USING (
        SELECT d."device",
               (SELECT x."id" FROM "device_log" x WHERE x."device" = d."device"
                 ORDER BY x."id" DESC OFFSET $2 LIMIT 1) AS "cutoff"
          FROM unnest($1::integer[]) AS d("device")
      ) c
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

// Lines after `afterId`, oldest first, at most `limit`.
export const readLogsAfter = async (
  db: Queryable,
  deviceId: number,
  afterId: number,
  limit: number,
): Promise<LogRow[]> => {
  const { rows } = await db.query<LogRow>(
    `SELECT ${rowColumns} FROM "device_log" WHERE "device" = $1 AND "id" > $2 ORDER BY "id" LIMIT $3`,
    [deviceId, afterId, limit],
  );
  return rows;
};

export const deleteLogs = async (db: Queryable, deviceId: number): Promise<void> => {
  await db.query(`DELETE FROM "device_log" WHERE "device" = $1`, [deviceId]);
};
