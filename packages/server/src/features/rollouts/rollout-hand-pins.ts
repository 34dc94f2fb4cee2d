import type { Queryable } from '../../infra/db/database.js';
import { recordEvent, type RolloutRow } from './rollout-steps.js';

// A device whose pin is not the one the rollout gave it was pinned (or unpinned) by hand: the
// hand wins. The device leaves the rollout for good: its pin is never set nor lifted by the
// rollout again, and it no longer counts in its wave's gates. What the rollout gave: nothing
// before its wave started, the previous release once rolled back, the target otherwise.
export const reconcileHandPins = async (
  tx: Queryable,
  rollout: RolloutRow,
  now: Date,
): Promise<void> => {
  const { rows } = await tx.query<{ uuid: string; pin: number | null }>(
    `UPDATE "flotilla_rollout_device" rd
        SET "state" = 'pinned_by_hand', "updated_at" = $4, "healthy_since" = NULL,
            "problem_since" = NULL,
            "reason" = CASE WHEN d."is_pinned_on__release" IS NULL
              THEN 'Unpinned by hand: follows the fleet release'
              ELSE 'Pinned by hand on release ' || d."is_pinned_on__release" END
       FROM "device" d
      WHERE rd."rollout" = $1 AND d."id" = rd."device" AND rd."state" <> 'pinned_by_hand'
        AND d."is_pinned_on__release" IS DISTINCT FROM (CASE rd."state"
              WHEN 'pending' THEN NULL
              WHEN 'rolled_back' THEN $2::integer
              ELSE $3::integer END)
      RETURNING d."uuid", d."is_pinned_on__release" AS "pin"`,
    [rollout.id, rollout.from_release, rollout.target_release, now],
  );
  for (const row of rows) {
    await recordEvent(
      tx,
      rollout.id,
      now,
      'device_pinned_by_hand',
      row.pin === null
        ? `Device ${row.uuid.slice(0, 7)} was unpinned by hand: the rollout leaves it alone`
        : `Device ${row.uuid.slice(0, 7)} was pinned by hand on release ${row.pin}: the rollout leaves it alone`,
    );
  }
};
