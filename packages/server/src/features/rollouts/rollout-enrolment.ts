import type { WaveSpec } from '@flotilla/shared/rollouts/rollout-types';
import type { Queryable } from '../../infra/db/database.js';
import { recordEvent, type RolloutRow } from './rollout-steps.js';
import { type CandidateDevice, waveOfNewcomer } from './wave-assignment.js';

// The fleet's devices a rollout may move: those nobody pinned by hand (a hand pin wins), with
// their tags for the group waves. `rollout` leaves out the devices it already enrolled.
export const candidateDevices = async (
  tx: Queryable,
  fleet: number,
  rollout?: number,
): Promise<CandidateDevice[]> => {
  const { rows } = await tx.query<{ id: number; uuid: string; tags: [string, string][] | null }>(
    `SELECT d."id", d."uuid",
            (SELECT json_agg(json_build_array(t."tag_key", t."value")) FROM "device_tag" t
              WHERE t."device" = d."id") AS "tags"
       FROM "device" d
      WHERE d."belongs_to__application" = $1 AND d."is_pinned_on__release" IS NULL
        AND ($2::integer IS NULL OR NOT EXISTS (
          SELECT 1 FROM "flotilla_rollout_device" rd WHERE rd."rollout" = $2 AND rd."device" = d."id"))`,
    [fleet, rollout ?? null],
  );
  return rows.map((row) => ({ id: row.id, uuid: row.uuid, tags: new Map(row.tags ?? []) }));
};

export const insertEnrolment = (
  tx: Queryable,
  rollout: number,
  devices: readonly { device: number; wave: number; state: string }[],
  now: Date,
): Promise<unknown> =>
  tx.query(
    `INSERT INTO "flotilla_rollout_device" ("rollout", "device", "wave", "state", "updated_at")
     SELECT $1, v."device", v."wave", v."state", $2
       FROM unnest($3::integer[], $4::integer[], $5::text[]) AS v("device", "wave", "state")`,
    [
      rollout,
      now,
      devices.map((device) => device.device),
      devices.map((device) => device.wave),
      devices.map((device) => device.state),
    ],
  );

// Devices that joined the fleet during the rollout get the release of the wave they fall in:
// the target once that wave has started (the previous release where it was rolled back).
export const enrolNewcomers = async (
  tx: Queryable,
  rollout: RolloutRow,
  waves: readonly WaveSpec[],
  now: Date,
): Promise<void> => {
  const newcomers = await candidateDevices(tx, rollout.application, rollout.id);
  if (newcomers.length === 0) return;
  const placed = newcomers.map((device) => {
    const wave = waveOfNewcomer(waves, device);
    const started = wave <= rollout.current_wave;
    const rolledBack = rollout.rolled_back && wave === rollout.current_wave;
    return {
      device: device.id,
      uuid: device.uuid,
      wave,
      state: !started ? 'pending' : rolledBack ? 'rolled_back' : 'updating',
      pin: !started ? null : rolledBack ? rollout.from_release : rollout.target_release,
    };
  });
  await insertEnrolment(tx, rollout.id, placed, now);
  const pinned = placed.filter((device) => device.pin !== null);
  if (pinned.length > 0) {
    await tx.query(
      `UPDATE "device" d SET "is_pinned_on__release" = v."pin"
         FROM unnest($1::integer[], $2::integer[]) AS v("device", "pin")
        WHERE d."id" = v."device"`,
      [pinned.map((device) => device.device), pinned.map((device) => device.pin)],
    );
  }
  for (const device of placed) {
    await recordEvent(
      tx,
      rollout.id,
      now,
      'device_joined',
      `Device ${device.uuid.slice(0, 7)} joined the fleet and falls in wave ${device.wave}`,
    );
  }
};
