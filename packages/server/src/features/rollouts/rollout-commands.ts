import type { Queryable } from '../../infra/db/database.js';
import { conflict, notFound } from '../../infra/errors/api-error.js';
import { reconcileHandPins } from './rollout-hand-pins.js';
import { abort, advance, recordEvent, rolloutColumns, type RolloutRow } from './rollout-steps.js';

export type RolloutCommand =
  | { kind: 'pause' }
  | { kind: 'resume' }
  | { kind: 'abort' }
  | { kind: 'skip-gate'; reason: string };

const lockRollout = async (tx: Queryable, id: number): Promise<RolloutRow> => {
  const { rows } = await tx.query<RolloutRow>(
    `SELECT ${rolloutColumns} FROM "flotilla_rollout" WHERE "id" = $1 FOR UPDATE`,
    [id],
  );
  const rollout = rows[0];
  if (!rollout) throw notFound(`No rollout ${id}`);
  return rollout;
};

const setStatus = (tx: Queryable, id: number, status: string): Promise<unknown> =>
  tx.query(`UPDATE "flotilla_rollout" SET "status" = $2 WHERE "id" = $1`, [id, status]);

// A user's decision on a rollout, refused with a 409 when the rollout's state does not allow it.
export const runCommand = async (
  tx: Queryable,
  id: number,
  command: RolloutCommand,
  userId: number,
  now: Date,
): Promise<void> => {
  const rollout = await lockRollout(tx, id);
  const finished = rollout.status === 'completed' || rollout.status === 'aborted';
  if (finished) throw conflict(`The rollout is already ${rollout.status}`);
  // A hand pin set since the last tick is seen before any pin moves.
  await reconcileHandPins(tx, rollout, now);
  switch (command.kind) {
    case 'pause':
      if (rollout.status !== 'running') throw conflict(`Only a running rollout can be paused`);
      await setStatus(tx, id, 'paused');
      await recordEvent(tx, id, now, 'paused', 'Paused', userId);
      return;
    case 'resume':
      if (rollout.status !== 'paused') {
        throw conflict(
          rollout.status === 'halted'
            ? 'A halted rollout continues only by skipping the failed gate, or stops by aborting'
            : 'Only a paused rollout can be resumed',
        );
      }
      await setStatus(tx, id, 'running');
      await recordEvent(tx, id, now, 'resumed', 'Resumed', userId);
      return;
    case 'abort':
      await abort(tx, rollout, now, userId);
      return;
    case 'skip-gate': {
      if (rollout.rolled_back) {
        throw conflict('The wave was rolled back: abort the rollout and start a new one');
      }
      await tx.query(
        `UPDATE "flotilla_rollout_wave" SET "status" = 'skipped', "skip_reason" = $3,
                "finished_at" = $4
          WHERE "rollout" = $1 AND "position" = $2`,
        [id, rollout.current_wave, command.reason, now],
      );
      await tx.query(
        `UPDATE "flotilla_rollout" SET "status" = 'running', "halt_reason" = NULL WHERE "id" = $1`,
        [id],
      );
      await recordEvent(
        tx,
        id,
        now,
        'gate_skipped',
        `Gate of wave ${rollout.current_wave} skipped: ${command.reason}`,
        userId,
      );
      const { rows } = await tx.query<{ n: number }>(
        `SELECT count(*)::integer AS "n" FROM "flotilla_rollout_wave" WHERE "rollout" = $1`,
        [id],
      );
      await advance(tx, rollout, rows[0]?.n ?? 0, now);
      return;
    }
  }
};
