import {
  effectiveReleaseStatus,
  isFailedStatus,
  releaseRuleMessages,
} from '@flotilla/shared/releases/release-status';
import { badRequest } from '../../infra/errors/api-error.js';
import type { HookRegistry, Values, WriteContext } from '../../infra/odata/hooks.js';
import type { SqlValue } from '../../infra/db/database.js';
import { refreshTrackedReleases } from '../fleets/fleet-hooks.js';
import { newImageLocation } from './image-location.js';
import { assertOwnRegistryLocation, isRegistryLocation } from './image-location-owner.js';

type ReleaseRow = {
  id: number;
  application: number;
  status: string;
  is_final: boolean;
  is_invalidated: boolean;
  start_timestamp: string | null;
  update_timestamp: string | null;
};

const releasesOf = async (ctx: WriteContext, ids: readonly number[]): Promise<ReleaseRow[]> => {
  const { rows } = await ctx.tx.query<ReleaseRow>(
    `SELECT "id", "belongs_to__application" AS "application", "status", "is_final",
            "is_invalidated", "start_timestamp"::text, "update_timestamp"::text
       FROM "release" WHERE "id" = ANY($1::integer[])`,
    [[...ids]],
  );
  return rows;
};

// What decides which release a fleet tracking the latest one runs (fleet-hooks.ts).
const tracked = ['status', 'is_final', 'is_invalidated', 'is_passing_tests'];

// A release a fleet or a device may be pinned to: valid, successful, of that fleet (only
// valid releases can be pinned). `owners` are the fleets of the pinned rows.
export const assertPinnable = async (
  ctx: WriteContext,
  releaseId: SqlValue | undefined,
  owners: readonly number[],
): Promise<void> => {
  if (typeof releaseId !== 'number') return;
  const [release] = await releasesOf(ctx, [releaseId]);
  // An invisible or missing release is the engine's 401 (reference check) or a foreign-key 400.
  if (!release) return;
  if (owners.some((owner) => owner !== release.application)) {
    throw badRequest(releaseRuleMessages.otherFleet);
  }
  if (release.is_invalidated) throw badRequest(releaseRuleMessages.onlyValidPinned);
  if (effectiveReleaseStatus(release, ctx.now) !== 'success') {
    throw badRequest(releaseRuleMessages.onlySuccessfulPinned);
  }
};

const fleetsOfDevices = async (ctx: WriteContext, ids: readonly number[]): Promise<number[]> => {
  const { rows } = await ctx.tx.query<{ application: number }>(
    `SELECT DISTINCT "belongs_to__application" AS "application" FROM "device" WHERE "id" = ANY($1::integer[])`,
    [[...ids]],
  );
  return rows.map((row) => row.application);
};

const checkReleaseUpdate = async (
  ctx: WriteContext,
  ids: readonly number[],
  values: Values,
): Promise<void> => {
  const releases = await releasesOf(ctx, ids);
  // Finalizing is one-way.
  if (values.is_final === false && releases.some((release) => release.is_final)) {
    throw badRequest(releaseRuleMessages.alreadyFinalized);
  }
  if (typeof values.is_invalidated === 'boolean') {
    const changed = releases.filter((release) => release.is_invalidated !== values.is_invalidated);
    if (changed.some((release) => isFailedStatus(effectiveReleaseStatus(release, ctx.now)))) {
      throw badRequest(releaseRuleMessages.cannotValidateFailed);
    }
  }
};

// Fleets whose target is an invalidated release run the newest valid one instead (their unpinned
// devices follow); fleets tracking the latest release follow every change of what "latest" is.
const afterReleaseWrite = async (
  ctx: WriteContext,
  ids: readonly number[],
  values: Values,
): Promise<void> => {
  if (values.is_invalidated === true) {
    await ctx.tx.query(
      `UPDATE "application" SET "should_track_latest_release" = true
        WHERE "should_be_running__release" = ANY($1::integer[])`,
      [[...ids]],
    );
  }
  if (!tracked.some((field) => values[field] !== undefined)) return;
  const fleets = [...new Set((await releasesOf(ctx, ids)).map((release) => release.application))];
  await refreshTrackedReleases(ctx, fleets);
};

export type ReleaseHookOptions = {
  // Host (and port) of the registry images are pushed to (FLOTILLA_REGISTRY_URL).
  registryHost: string;
};

export const registerReleaseHooks = (hooks: HookRegistry, options: ReleaseHookOptions): void => {
  hooks.add('release', {
    // The author is the user who creates the release (the console's release pages show it);
    // balena-cli names itself, other clients may leave it out.
    async beforeCreate(ctx, values) {
      if (ctx.actor.kind === 'user') values.is_created_by__user ??= ctx.actor.userId;
    },
    async afterCreate(ctx, id, values) {
      await afterReleaseWrite(ctx, [id], { status: values.status ?? 'running' });
    },
    beforeUpdate: checkReleaseUpdate,
    afterUpdate: afterReleaseWrite,
    async beforeDelete(ctx, ids) {
      const { rows } = await ctx.tx.query(
        `SELECT 1 FROM "application" WHERE "should_be_running__release" = ANY($1::integer[])
         UNION ALL
         SELECT 1 FROM "device" WHERE "is_pinned_on__release" = ANY($1::integer[])
         LIMIT 1`,
        [[...ids]],
      );
      if (rows.length > 0) throw badRequest(releaseRuleMessages.cannotDeletePinned);
    },
  });

  hooks.add('application', {
    async beforeUpdate(ctx, ids, values) {
      await assertPinnable(ctx, values.should_be_running__release, ids);
    },
  });

  hooks.add('device', {
    async beforeUpdate(ctx, ids, values) {
      if (typeof values.is_pinned_on__release !== 'number') return;
      await assertPinnable(ctx, values.is_pinned_on__release, await fleetsOfDevices(ctx, ids));
    },
  });

  // balena-cli posts images without a location and pushes to the one the API answers. A location
  // elsewhere (a public image of a compose file) is the client's to name; one in the operator's
  // registry only when it already belongs to the fleet.
  hooks.add('image', {
    async beforeCreate(ctx, values) {
      const given = values.is_stored_at__image_location;
      if (given === undefined || given === null) {
        values.is_stored_at__image_location = newImageLocation(options.registryHost);
      } else if (typeof given === 'string' && isRegistryLocation(given, options.registryHost)) {
        await assertOwnRegistryLocation(ctx, given, values.is_a_build_of__service);
      }
    },
  });
};
