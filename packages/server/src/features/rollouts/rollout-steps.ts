import type { Queryable } from '../../infra/db/database.js';

// The rollout's moves on the database, each within the caller's transaction. Pins are only ever
// set on, or lifted from, the devices the rollout enrolled.

export type RolloutRow = {
  id: number;
  application: number;
  from_release: number;
  target_release: number;
  status: string;
  gates: unknown;
  current_wave: number;
  rolled_back: boolean;
};

export const rolloutColumns = `"id", "application", "from_release", "target_release", "status",
  "gates", "current_wave", "rolled_back"`;

export const recordEvent = (
  tx: Queryable,
  rollout: number,
  now: Date,
  kind: string,
  message: string,
  byUser: number | null = null,
): Promise<unknown> =>
  tx.query(
    `INSERT INTO "flotilla_rollout_event" ("rollout", "at", "kind", "message", "by_user")
     VALUES ($1, $2, $3, $4, $5)`,
    [rollout, now, kind, message, byUser],
  );

// Pins the wave's devices on the target and starts its soak.
export const startWave = async (
  tx: Queryable,
  rollout: RolloutRow,
  position: number,
  now: Date,
): Promise<void> => {
  await tx.query(
    `UPDATE "flotilla_rollout_wave" SET "status" = 'soaking', "started_at" = $3
      WHERE "rollout" = $1 AND "position" = $2`,
    [rollout.id, position, now],
  );
  await tx.query(`UPDATE "flotilla_rollout" SET "current_wave" = $2 WHERE "id" = $1`, [
    rollout.id,
    position,
  ]);
  const { rowCount } = await tx.query(
    `UPDATE "flotilla_rollout_device" SET "state" = 'updating', "updated_at" = $3
      WHERE "rollout" = $1 AND "wave" = $2 AND "state" = 'pending'`,
    [rollout.id, position, now],
  );
  await pinWave(tx, rollout.id, position, null, rollout.target_release);
  await recordEvent(
    tx,
    rollout.id,
    now,
    'wave_started',
    `Wave ${position} started: ${rowCount} device${rowCount === 1 ? '' : 's'} pinned on the target release`,
  );
};

// Moves the wave's pins from `from` (what the rollout gave them) to `to`. A device pinned by hand
// keeps its pin, also one pinned by hand since the tick looked (the condition is checked again
// on the locked row).
const pinWave = (
  tx: Queryable,
  rollout: number,
  position: number,
  from: number | null,
  to: number,
): Promise<unknown> =>
  tx.query(
    `UPDATE "device" d SET "is_pinned_on__release" = $4
       FROM "flotilla_rollout_device" rd
      WHERE rd."rollout" = $1 AND rd."wave" = $2 AND rd."device" = d."id"
        AND rd."state" <> 'pinned_by_hand'
        AND d."is_pinned_on__release" IS NOT DISTINCT FROM $3::integer`,
    [rollout, position, from, to],
  );

// Lifts the rollout's pins (on either of its releases) from every device it enrolled, except
// those pinned by hand meanwhile.
const liftPins = (tx: Queryable, rollout: RolloutRow): Promise<unknown> =>
  tx.query(
    `UPDATE "device" d SET "is_pinned_on__release" = NULL
       FROM "flotilla_rollout_device" rd
      WHERE rd."rollout" = $1 AND rd."device" = d."id" AND rd."state" <> 'pinned_by_hand'
        AND d."is_pinned_on__release" IN ($2, $3)`,
    [rollout.id, rollout.from_release, rollout.target_release],
  );

export const halt = async (
  tx: Queryable,
  rollout: RolloutRow,
  rollback: boolean,
  reason: string,
  now: Date,
): Promise<void> => {
  const position = rollout.current_wave;
  await tx.query(
    `UPDATE "flotilla_rollout_wave" SET "status" = 'failed', "finished_at" = $3
      WHERE "rollout" = $1 AND "position" = $2`,
    [rollout.id, position, now],
  );
  await tx.query(
    `UPDATE "flotilla_rollout" SET "status" = 'halted', "halt_reason" = $2, "rolled_back" = $3
      WHERE "id" = $1`,
    [rollout.id, reason, rollback],
  );
  await recordEvent(tx, rollout.id, now, 'halted', reason);
  if (!rollback) return;
  await pinWave(tx, rollout.id, position, rollout.target_release, rollout.from_release);
  await tx.query(
    `UPDATE "flotilla_rollout_device"
        SET "state" = 'rolled_back', "updated_at" = $3,
            "reason" = coalesce("reason", 'Rolled back with its wave')
      WHERE "rollout" = $1 AND "wave" = $2 AND "state" <> 'pinned_by_hand'`,
    [rollout.id, position, now],
  );
  await recordEvent(
    tx,
    rollout.id,
    now,
    'rolled_back',
    `Wave ${position} pinned back on the previous release`,
  );
};

// The last wave passed: the fleet runs the target and the pins go.
export const complete = async (tx: Queryable, rollout: RolloutRow, now: Date): Promise<void> => {
  await tx.query(`UPDATE "application" SET "should_be_running__release" = $2 WHERE "id" = $1`, [
    rollout.application,
    rollout.target_release,
  ]);
  await liftPins(tx, rollout);
  await tx.query(
    `UPDATE "flotilla_rollout" SET "status" = 'completed', "finished_at" = $2 WHERE "id" = $1`,
    [rollout.id, now],
  );
  await recordEvent(tx, rollout.id, now, 'completed', 'The fleet now runs the target release');
};

// Abort: every enrolled device goes back to the fleet's release (the one it came from).
export const abort = async (
  tx: Queryable,
  rollout: RolloutRow,
  now: Date,
  byUser: number,
): Promise<void> => {
  await liftPins(tx, rollout);
  await tx.query(
    `UPDATE "flotilla_rollout" SET "status" = 'aborted', "finished_at" = $2 WHERE "id" = $1`,
    [rollout.id, now],
  );
  await recordEvent(
    tx,
    rollout.id,
    now,
    'aborted',
    'Aborted: every device follows the fleet release again',
    byUser,
  );
};

// The wave passed (or its gate was skipped): the next starts, or the rollout completes.
export const advance = async (
  tx: Queryable,
  rollout: RolloutRow,
  waveCount: number,
  now: Date,
): Promise<void> => {
  if (rollout.current_wave >= waveCount) {
    await complete(tx, rollout, now);
    return;
  }
  await startWave(tx, rollout, rollout.current_wave + 1, now);
};
