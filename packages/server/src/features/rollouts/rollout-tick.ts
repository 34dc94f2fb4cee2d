import { rolloutGates, waveSpec } from '@flotilla/shared/rollouts/rollout-plan';
import { z } from 'zod';
import type { Database, Queryable } from '../../infra/db/database.js';
import { type DeviceObservation, judgeDevice, judgeWave } from './rollout-gates.js';
import { advance, halt, recordEvent, rolloutColumns, type RolloutRow } from './rollout-steps.js';
import { enrolNewcomers } from './rollout-enrolment.js';
import { reconcileHandPins } from './rollout-hand-pins.js';

const waveSpecs = z.array(waveSpec);

type ObservationRow = {
  device: number;
  state: DeviceObservation['state'];
  healthy_since: Date | null;
  problem_since: Date | null;
  online: boolean;
  runs_target: boolean;
  update_status: string | null;
  statuses: string[];
  cpu_usage: number | null;
  memory_percent: number | null;
  cpu_temp: number | null;
  failed_check: string | null;
  // Whether a health-check run was started on the device since the wave started.
  checked: boolean;
};

// One query per soaking wave, whatever its size: the device row's stored deadlines (compared with
// the scheduler's clock), its target installs, and its newest health-check run since the wave
// started.
const observe = async (
  tx: Queryable,
  rollout: RolloutRow,
  waveStartedAt: Date,
  now: Date,
): Promise<ObservationRow[]> =>
  (
    await tx.query<ObservationRow>(
      `SELECT rd."device", rd."state", rd."healthy_since", rd."problem_since",
              coalesce(d."timeout_until" >= $4, false) AS "online",
              coalesce(d."is_running__release" = $3, false) AS "runs_target",
              d."update_status", d."cpu_usage", d."cpu_temp",
              CASE WHEN d."memory_total" > 0
                THEN round(d."memory_usage" * 100.0 / d."memory_total")::integer END AS "memory_percent",
              coalesce((SELECT array_agg(ii."status") FROM "image_install" ii
                         WHERE ii."device" = d."id" AND ii."is_provided_by__release" = $3),
                       '{}') AS "statuses",
              (SELECT c ->> 'name' FROM "diagnostic_run" dr, jsonb_array_elements(dr."checks") c
                WHERE dr."device" = d."id" AND dr."action" = 'checks' AND dr."status" = 'done'
                  AND dr."created_at" >= $5
                  AND dr."id" = (SELECT max(l."id") FROM "diagnostic_run" l
                                  WHERE l."device" = d."id" AND l."action" = 'checks'
                                    AND l."status" = 'done')
                  AND (c ->> 'success')::boolean IS FALSE
                LIMIT 1) AS "failed_check",
              EXISTS (SELECT 1 FROM "diagnostic_run" c WHERE c."device" = d."id"
                         AND c."action" = 'checks' AND c."created_at" >= $5) AS "checked"
         FROM "flotilla_rollout_device" rd JOIN "device" d ON d."id" = rd."device"
        WHERE rd."rollout" = $1 AND rd."wave" = $2 AND rd."state" <> 'pinned_by_hand'`,
      [rollout.id, rollout.current_wave, rollout.target_release, now, waveStartedAt],
    )
  ).rows;

// Judges the soaking wave; answers the devices that run the target healthily but have not run
// their health checks since the wave started, for the caller to ask them to.
const judgeCurrentWave = async (
  tx: Queryable,
  rollout: RolloutRow,
  waveCount: number,
  now: Date,
): Promise<number[]> => {
  const gates = rolloutGates.parse(rollout.gates);
  const { rows } = await tx.query<{ started_at: Date | null; status: string }>(
    `SELECT "started_at", "status" FROM "flotilla_rollout_wave" WHERE "rollout" = $1 AND "position" = $2`,
    [rollout.id, rollout.current_wave],
  );
  const wave = rows[0];
  if (!wave || wave.status !== 'soaking' || !wave.started_at) return [];
  const observed = await observe(tx, rollout, wave.started_at, now);
  const verdicts = observed.map((row) =>
    judgeDevice(
      {
        state: row.state,
        healthySince: row.healthy_since,
        problemSince: row.problem_since,
        online: row.online,
        runsTarget: row.runs_target,
        updateStatus: row.update_status,
        serviceStatuses: row.statuses,
        cpuUsage: row.cpu_usage,
        memoryPercent: row.memory_percent,
        cpuTemp: row.cpu_temp,
        failedCheck: row.failed_check,
      },
      gates,
      wave.started_at ?? now,
      now,
    ),
  );
  await tx.query(
    `UPDATE "flotilla_rollout_device" rd
        SET "state" = v."state", "reason" = v."reason", "healthy_since" = v."healthy_since",
            "problem_since" = v."problem_since", "updated_at" = $2
       FROM unnest($3::integer[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[])
            AS v("device", "state", "reason", "healthy_since", "problem_since")
      WHERE rd."rollout" = $1 AND rd."device" = v."device"
        AND rd."state" NOT IN ('failed', 'rolled_back', 'pinned_by_hand')`,
    [
      rollout.id,
      now,
      observed.map((row) => row.device),
      verdicts.map((verdict) => verdict.state),
      verdicts.map((verdict) => verdict.reason),
      verdicts.map((verdict) => verdict.healthySince),
      verdicts.map((verdict) => verdict.problemSince),
    ],
  );
  const outcome = judgeWave(verdicts, gates, now);
  if (outcome === 'over-budget') {
    const failed = verdicts.filter((verdict) => verdict.state === 'failed').length;
    await halt(
      tx,
      rollout,
      gates.rollbackOnHalt,
      `Wave ${rollout.current_wave}: ${failed} of ${verdicts.length} devices failed (budget ${gates.failureBudgetPercent} %)`,
      now,
    );
  } else if (outcome === 'passed') {
    await tx.query(
      `UPDATE "flotilla_rollout_wave" SET "status" = 'passed', "finished_at" = $3
        WHERE "rollout" = $1 AND "position" = $2`,
      [rollout.id, rollout.current_wave, now],
    );
    await recordEvent(tx, rollout.id, now, 'wave_passed', `Wave ${rollout.current_wave} passed`);
    await advance(tx, rollout, waveCount, now);
    return [];
  }
  return observed.flatMap((row, index) =>
    verdicts[index]?.state === 'healthy' && !row.checked ? [row.device] : [],
  );
};

// One rollout's step, under its row lock (another process's tick skips it meanwhile); answers
// the devices to ask for a health-check run.
const stepRollout = async (db: Database, id: number, now: Date): Promise<number[]> =>
  db.transaction(async (tx) => {
    const { rows } = await tx.query<RolloutRow>(
      `SELECT ${rolloutColumns} FROM "flotilla_rollout"
        WHERE "id" = $1 AND "status" IN ('running', 'paused', 'halted') FOR UPDATE SKIP LOCKED`,
      [id],
    );
    const rollout = rows[0];
    if (!rollout) return [];
    const waves = waveSpecs.parse(
      (
        await tx.query<{ spec: unknown }>(
          `SELECT "spec" FROM "flotilla_rollout_wave" WHERE "rollout" = $1 ORDER BY "position"`,
          [id],
        )
      ).rows.map((row) => row.spec),
    );
    await reconcileHandPins(tx, rollout, now);
    await enrolNewcomers(tx, rollout, waves, now);
    return rollout.status === 'running' ? judgeCurrentWave(tx, rollout, waves.length, now) : [];
  });

// The scheduler's tick: only rollouts in progress are read, and each wave's devices in one query.
// Answers the devices that now run their wave's release healthily without a health-check run
// since their wave started: the rollout asks them to run their checks, once, so a failing check
// fails the device before the soak ends.
export const runRolloutTick = async (db: Database, now: Date): Promise<number[]> => {
  const { rows } = await db.query<{ id: number }>(
    `SELECT "id" FROM "flotilla_rollout" WHERE "status" IN ('running', 'paused', 'halted')`,
  );
  const toCheck: number[] = [];
  for (const row of rows) toCheck.push(...(await stepRollout(db, row.id, now)));
  return toCheck;
};
