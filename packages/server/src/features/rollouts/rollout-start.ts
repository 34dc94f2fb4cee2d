import type { RolloutPlan } from '@flotilla/shared/rollouts/rollout-plan';
import { describeWave } from '@flotilla/shared/rollouts/rollout-types';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, conflict, notFound } from '../../infra/errors/api-error.js';
import { candidateDevices, insertEnrolment } from './rollout-enrolment.js';
import { recordEvent, rolloutColumns, type RolloutRow, startWave } from './rollout-steps.js';
import { assignWaves, type CandidateDevice } from './wave-assignment.js';

type FleetRelease = { fromRelease: number; devices: CandidateDevice[] };

// Every reason a plan cannot start, in the user's words, before anything is written.
export const checkPlan = async (
  tx: Queryable,
  fleet: number,
  plan: RolloutPlan,
): Promise<FleetRelease> => {
  const { rows: fleets } = await tx.query<{ release: number | null }>(
    `SELECT "should_be_running__release" AS "release" FROM "application" WHERE "id" = $1`,
    [fleet],
  );
  const fleetRow = fleets[0];
  if (!fleetRow) throw notFound(`No fleet ${fleet}`);
  const { rows: releases } = await tx.query<{
    fleet: number;
    status: string;
    is_invalidated: boolean;
  }>(
    `SELECT "belongs_to__application" AS "fleet", "status", "is_invalidated" FROM "release" WHERE "id" = $1`,
    [plan.targetRelease],
  );
  const release = releases[0];
  if (!release || release.fleet !== fleet) {
    throw badRequest(`Release ${plan.targetRelease} does not belong to this fleet`);
  }
  if (release.status !== 'success') {
    throw badRequest(
      `Release ${plan.targetRelease} did not build successfully (${release.status})`,
    );
  }
  if (release.is_invalidated) throw badRequest(`Release ${plan.targetRelease} is invalidated`);
  if (fleetRow.release === null) {
    throw badRequest('The fleet has no release to roll out from: set its release first');
  }
  if (fleetRow.release === plan.targetRelease) {
    throw badRequest('The fleet already runs this release');
  }
  const devices = await candidateDevices(tx, fleet);
  const known = new Set(devices.map((device) => device.uuid));
  for (const wave of plan.waves) {
    if (!('devices' in wave)) continue;
    const unknown = wave.devices.find((uuid) => !known.has(uuid));
    if (unknown !== undefined) {
      throw badRequest(`Device ${unknown} is not in this fleet, or is pinned on a release by hand`);
    }
  }
  return { fromRelease: fleetRow.release, devices };
};

export const startRollout = async (
  tx: Queryable,
  fleet: number,
  plan: RolloutPlan,
  userId: number,
  now: Date,
): Promise<number> => {
  const { fromRelease, devices } = await checkPlan(tx, fleet, plan);
  const { rows: active } = await tx.query<{ id: number }>(
    `SELECT "id" FROM "flotilla_rollout" WHERE "application" = $1
       AND "status" IN ('running', 'paused', 'halted') FOR UPDATE`,
    [fleet],
  );
  if (active[0]) {
    throw conflict(
      `The fleet already has a rollout in progress (${active[0].id}): finish or abort it first`,
    );
  }
  const { rows } = await tx.query<RolloutRow>(
    `INSERT INTO "flotilla_rollout" ("application", "from_release", "target_release", "gates",
       "started_by", "created_at")
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${rolloutColumns}`,
    [fleet, fromRelease, plan.targetRelease, JSON.stringify(plan.gates), userId, now],
  );
  const rollout = rows[0];
  if (!rollout) throw new Error('rollout insert returned nothing');
  await tx.query(
    `INSERT INTO "flotilla_rollout_wave" ("rollout", "position", "spec")
     SELECT $1, v."position", v."spec" FROM unnest($2::integer[], $3::jsonb[]) AS v("position", "spec")`,
    [
      rollout.id,
      plan.waves.map((_, index) => index + 1),
      plan.waves.map((wave) => JSON.stringify(wave)),
    ],
  );
  const assigned = assignWaves(plan.waves, devices);
  await insertEnrolment(
    tx,
    rollout.id,
    [...assigned].map(([device, wave]) => ({ device, wave, state: 'pending' })),
    now,
  );
  await recordEvent(
    tx,
    rollout.id,
    now,
    'started',
    `Started: ${assigned.size} devices in ${plan.waves.length} waves (${plan.waves.map(describeWave).join(', ')})`,
    userId,
  );
  await startWave(tx, rollout, 1, now);
  return rollout.id;
};
