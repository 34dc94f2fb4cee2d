import {
  isHostUpdateQueued,
  isQueueable,
  type QueueableAction,
  type QueuedAction,
  type QueuedActionStatus,
} from '@flotilla/shared/devices/queued-actions';
import { type Actor, anonymous } from '../../infra/auth/actor.js';
import type { Database, Queryable } from '../../infra/db/database.js';
import { revertHostUpdate } from './host-updates.js';

type Row = {
  id: number;
  device: number;
  action: string;
  params: QueuedAction['params'];
  status: QueuedActionStatus;
  created_at: Date;
  expires_at: Date;
  finished_at: Date | null;
  result_status: number | null;
  message: string | null;
};

const columns = `"id", "device", "action", "params", "status", "created_at", "expires_at",
  "finished_at", "result_status", "message"`;

export const queuedActionOf = (row: Row): QueuedAction => {
  if (!isQueueable(row.action)) throw new Error(`not a queueable action: ${row.action}`);
  return {
    id: row.id,
    deviceId: row.device,
    action: row.action,
    params: row.params,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    resultStatus: row.result_status,
    message: row.message,
  };
};

export type NewQueuedAction = {
  deviceId: number;
  action: QueueableAction;
  params: QueuedAction['params'];
  now: Date;
  expiresAt: Date;
  actorId: number | null;
};

// Queues the action unless the device already has `limit` waiting; undefined when it has.
export const enqueue = async (
  db: Queryable,
  entry: NewQueuedAction,
  limit: number,
): Promise<QueuedAction | undefined> => {
  const { rows } = await db.query<Row>(
    `INSERT INTO "queued_device_action"
       ("device", "action", "params", "created_at", "expires_at", "queued_by__actor")
     SELECT $1, $2, $3, $4, $5, $6
      WHERE (SELECT count(*) FROM "queued_device_action"
              WHERE "device" = $1 AND "status" IN ('queued', 'delivering')) < $7
     RETURNING ${columns}`,
    [
      entry.deviceId,
      entry.action,
      JSON.stringify(entry.params),
      entry.now,
      entry.expiresAt,
      entry.actorId,
      limit,
    ],
  );
  const [row] = rows;
  return row ? queuedActionOf(row) : undefined;
};

export const listForDevice = async (
  db: Queryable,
  deviceId: number,
  limit: number,
): Promise<QueuedAction[]> => {
  const { rows } = await db.query<Row>(
    `SELECT ${columns} FROM "queued_device_action" WHERE "device" = $1 ORDER BY "id" DESC LIMIT $2`,
    [deviceId, limit],
  );
  return rows.map(queuedActionOf);
};

// The waiting actions of the given devices (not yet expired), oldest first.
export const listWaiting = async (
  db: Queryable,
  deviceIds: readonly number[],
  now: Date,
): Promise<QueuedAction[]> => {
  const { rows } = await db.query<Row>(
    `SELECT ${columns} FROM "queued_device_action"
      WHERE "device" = ANY($1::integer[]) AND "status" IN ('queued', 'delivering')
        AND ("status" = 'delivering' OR "expires_at" > $2)
      ORDER BY "id"`,
    [deviceIds, now],
  );
  return rows.map(queuedActionOf);
};

export const findQueued = async (db: Queryable, id: number): Promise<QueuedAction | undefined> => {
  const { rows } = await db.query<Row>(
    `SELECT ${columns} FROM "queued_device_action" WHERE "id" = $1`,
    [id],
  );
  const [row] = rows;
  return row ? queuedActionOf(row) : undefined;
};

// Cancels a waiting action inside the caller's transaction; false when it is no longer waiting
// (delivered, expired, cancelled). An OS or supervisor update puts the previous release back.
export const cancelQueued = async (
  tx: Queryable,
  id: number,
  now: Date,
  actor: Actor,
): Promise<boolean> => {
  const { rows } = await tx.query<Row>(
    `UPDATE "queued_device_action"
        SET "status" = 'cancelled', "finished_at" = $2, "message" = 'Cancelled'
      WHERE "id" = $1 AND "status" = 'queued'
      RETURNING ${columns}`,
    [id, now],
  );
  const [row] = rows;
  if (!row) return false;
  await revertIfHostUpdate(tx, queuedActionOf(row), { reason: 'cancelled', actor, now });
  return true;
};

const revertIfHostUpdate = async (
  tx: Queryable,
  queued: QueuedAction,
  how: Parameters<typeof revertHostUpdate>[2],
): Promise<void> => {
  const { action } = queued;
  if (!isHostUpdateQueued(action)) return;
  const message = await revertHostUpdate(tx, { ...queued, action }, how);
  await tx.query(`UPDATE "queued_device_action" SET "message" = $2 WHERE "id" = $1`, [
    queued.id,
    message,
  ]);
};

// Marks every waiting action past its expiry as expired (of one device, or of all); expired OS
// and supervisor updates put the previous release back in the same transaction.
export const expireDue = async (db: Database, now: Date, deviceId?: number): Promise<number> =>
  db.transaction(async (tx) => {
    const { rows } = await tx.query<Row>(
      `UPDATE "queued_device_action"
          SET "status" = 'expired', "finished_at" = "expires_at",
              "message" = 'Expired before the device came online'
        WHERE "status" = 'queued' AND "expires_at" <= $1
          AND ($2::integer IS NULL OR "device" = $2::integer)
        RETURNING ${columns}`,
      [now, deviceId ?? null],
    );
    // Newest first: of two updates stacked on one device, the later one puts back the earlier
    // one's release, which the earlier one then puts back in turn.
    for (const row of [...rows].sort((a, b) => b.id - a.id)) {
      await revertIfHostUpdate(tx, queuedActionOf(row), {
        reason: 'expired',
        actor: anonymous,
        now,
      });
    }
    return rows.length;
  });

// Takes the device's oldest waiting action for delivery, unless one is being delivered already
// (actions run one after the other, in the order they were queued).
export const claimNext = async (
  db: Database,
  deviceId: number,
  now: Date,
): Promise<QueuedAction | undefined> => {
  await expireDue(db, now, deviceId);
  const { rows } = await db.query<Row>(
    `UPDATE "queued_device_action" SET "status" = 'delivering', "claimed_at" = $2
      WHERE "id" = (
        SELECT "id" FROM "queued_device_action"
         WHERE "device" = $1 AND "status" = 'queued'
           AND NOT EXISTS (SELECT 1 FROM "queued_device_action"
                            WHERE "device" = $1 AND "status" = 'delivering')
         ORDER BY "id" LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING ${columns}`,
    [deviceId, now],
  );
  const [row] = rows;
  return row ? queuedActionOf(row) : undefined;
};

export type Outcome = {
  status: 'done' | 'failed';
  resultStatus: number | null;
  message: string | null;
};

export const finish = async (
  db: Queryable,
  id: number,
  outcome: Outcome,
  now: Date,
): Promise<void> => {
  await db.query(
    `UPDATE "queued_device_action"
        SET "status" = $2, "result_status" = $3, "message" = $4, "finished_at" = $5
      WHERE "id" = $1`,
    [id, outcome.status, outcome.resultStatus, outcome.message, now],
  );
};

// The device went away during delivery: the action waits again, first in line.
export const putBack = async (db: Queryable, id: number): Promise<void> => {
  await db.query(
    `UPDATE "queued_device_action" SET "status" = 'queued' WHERE "id" = $1 AND "status" = 'delivering'`,
    [id],
  );
};

// Deliveries a stopped process left half done wait again (delivered at most once more).
export const releaseStale = async (db: Queryable, claimedBefore: Date): Promise<void> => {
  await db.query(
    `UPDATE "queued_device_action" SET "status" = 'queued', "claimed_at" = NULL
      WHERE "status" = 'delivering' AND "claimed_at" < $1`,
    [claimedBefore],
  );
};

// Devices with waiting actions among those this process holds a cloudlink for.
export const devicesWithWaiting = async (
  db: Queryable,
  deviceIds: readonly number[],
): Promise<number[]> => {
  const { rows } = await db.query<{ device: number }>(
    `SELECT DISTINCT "device" FROM "queued_device_action"
      WHERE "device" = ANY($1::integer[]) AND "status" = 'queued'`,
    [deviceIds],
  );
  return rows.map((row) => row.device);
};
