import type { Database, Queryable } from '../../infra/db/database.js';

// device_log is partitioned by the day a line was received (created_at, ms, UTC days;
// migrations/0077-device-log-partitions.sql). A scheduled job (register-device-logs.ts) keeps
// `aheadDays` days created ahead of the clock, so inserts always find their day, and drops every
// partition whose end is older than the retention: old lines leave as whole tables, never by a
// mass DELETE, and vacuum never sees them. The DEFAULT partition takes lines outside every day
// created (a clock far off); a day created later moves its lines out of it first.

export const dayMs = 86_400_000;
// Advisory lock: one process at a time changes the partitions.
const partitionLockKey = 1_819_240_304;

export type LogPartition = {
  name: string;
  // [from, to) in ms; from is -Infinity for a partition open below (MINVALUE).
  from: number;
  to: number;
};

const boundPattern = /FROM \((MINVALUE|'?(-?\d+)'?)\) TO \('?(-?\d+)'?\)/;

// The day partitions with their bounds (the DEFAULT partition is not among them).
export const listLogPartitions = async (db: Queryable): Promise<LogPartition[]> => {
  const { rows } = await db.query<{ name: string; bound: string }>(
    `SELECT c."relname" AS "name", pg_get_expr(c."relpartbound", c."oid") AS "bound"
       FROM pg_inherits i JOIN pg_class c ON c."oid" = i."inhrelid"
      WHERE i."inhparent" = 'public.device_log'::regclass`,
  );
  const partitions: LogPartition[] = [];
  for (const row of rows) {
    const match = boundPattern.exec(row.bound);
    if (!match) continue;
    const from = match[1] === 'MINVALUE' ? -Infinity : Number(match[2]);
    partitions.push({ name: row.name, from, to: Number(match[3]) });
  }
  return partitions.sort((a, b) => a.from - b.from);
};

const dayName = (from: number): string =>
  `device_log_${new Date(from).toISOString().slice(0, 10).replace(/-/g, '')}`;

// Each change in its own short transaction, under the lock, with the partitions read again
// (another process may have done it meanwhile), and a short lock timeout: a DROP or CREATE
// waiting behind a long read would hold up every log insert queued behind it (and a CREATE,
// which adds the foreign key's trigger, every write of a device row); it gives up and the next
// run tries again, days ahead of need.
const underLock = <T>(db: Database, work: (tx: Queryable) => Promise<T>): Promise<T> =>
  db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock($1)`, [partitionLockKey]);
    await tx.query(`SET LOCAL lock_timeout = '1s'`);
    return work(tx);
  });

const overlaps = (partitions: readonly LogPartition[], from: number, to: number): boolean =>
  partitions.some((partition) => partition.from < to && from < partition.to);

// Creates the day [from, from + dayMs) unless a partition covers part of it. Lines of that day
// already in the DEFAULT partition move into it (a DELETE of those strays only, then ATTACH).
const createDay = async (db: Database, from: number): Promise<boolean> =>
  underLock(db, async (tx) => {
    const to = from + dayMs;
    if (overlaps(await listLogPartitions(tx), from, to)) return false;
    const name = dayName(from);
    const { rows } = await tx.query<{ strays: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM "device_log_default"
                       WHERE "created_at" >= $1 AND "created_at" < $2) AS "strays"`,
      [from, to],
    );
    if (!rows[0]?.strays) {
      await tx.query(
        `CREATE TABLE "${name}" PARTITION OF "device_log" FOR VALUES FROM (${from}) TO (${to})`,
      );
      return true;
    }
    await tx.query(`CREATE TABLE "${name}" (LIKE "device_log" INCLUDING DEFAULTS)`);
    await tx.query(
      `WITH "moved" AS (
         DELETE FROM "device_log_default" WHERE "created_at" >= $1 AND "created_at" < $2
         RETURNING *
       )
       INSERT INTO "${name}" SELECT * FROM "moved"`,
      [from, to],
    );
    await tx.query(
      `ALTER TABLE "device_log" ATTACH PARTITION "${name}" FOR VALUES FROM (${from}) TO (${to})`,
    );
    return true;
  });

const dropPartition = async (db: Database, name: string): Promise<void> =>
  underLock(db, async (tx) => {
    const still = (await listLogPartitions(tx)).some((partition) => partition.name === name);
    if (still) await tx.query(`DROP TABLE "${name}"`);
  });

export type PartitionUpkeep = { created: string[]; dropped: string[] };

// Creates today and the `aheadDays` days after it where missing, and drops every partition that
// ends at or before now - retentionDays.
export const maintainLogPartitions = async (
  db: Database,
  options: { now: Date; retentionDays: number; aheadDays: number },
): Promise<PartitionUpkeep> => {
  const today = Math.floor(options.now.getTime() / dayMs) * dayMs;
  const upkeep: PartitionUpkeep = { created: [], dropped: [] };
  const existing = await listLogPartitions(db);
  for (let day = 0; day <= options.aheadDays; day += 1) {
    const from = today + day * dayMs;
    if (overlaps(existing, from, from + dayMs)) continue;
    if (await createDay(db, from)) upkeep.created.push(dayName(from));
  }
  const cutoff = options.now.getTime() - options.retentionDays * dayMs;
  for (const partition of await listLogPartitions(db)) {
    if (partition.to > cutoff) continue;
    await dropPartition(db, partition.name);
    upkeep.dropped.push(partition.name);
  }
  return upkeep;
};
