import { randomBytes } from 'node:crypto';
import { applicationClasses, fleetNameProblem } from '@flotilla/shared/fleets/fleet-name';
import { badRequest } from '../../infra/errors/api-error.js';
import type { HookRegistry, WriteContext } from '../../infra/odata/hooks.js';

export const newUuid = (): string => randomBytes(16).toString('hex');

// Points fleets that track the latest release at their newest successful final release.
export const refreshTrackedReleases = async (
  ctx: WriteContext,
  applicationIds: readonly number[],
): Promise<void> => {
  await ctx.tx.query(
    `UPDATE "application" a SET "should_be_running__release" = (
       SELECT r."id" FROM "release" r
       WHERE r."belongs_to__application" = a."id" AND r."status" = 'success'
         AND r."is_final" AND r."is_passing_tests" AND NOT r."is_invalidated"
       ORDER BY r."created_at" DESC, r."id" DESC LIMIT 1)
     WHERE a."id" = ANY($1::integer[]) AND a."should_track_latest_release"`,
    [[...applicationIds]],
  );
};

const checkName = (name: unknown, className: string): void => {
  if (typeof name !== 'string') return;
  const problem = fleetNameProblem(name);
  if (problem) throw badRequest(`Invalid ${className} name: ${problem}`);
};

export const registerFleetHooks = (hooks: HookRegistry): void => {
  hooks.add('application', {
    async beforeCreate(ctx, values) {
      const className = typeof values.is_of__class === 'string' ? values.is_of__class : 'fleet';
      if (!(applicationClasses as readonly string[]).includes(className)) {
        throw badRequest(`'is_of__class' must be one of ${applicationClasses.join(', ')}`);
      }
      values.is_of__class = className;
      checkName(values.app_name, className);
      if (values.app_name === undefined)
        throw badRequest("'app_name' of 'application' is required");
      const { rows } = await ctx.tx.query<{ handle: string }>(
        'SELECT "handle" FROM "organization" WHERE "id" = $1',
        [values.organization ?? null],
      );
      const handle = rows[0]?.handle;
      // A missing or invisible organization is caught by the permission re-check as a 401.
      if (handle !== undefined && values.slug === undefined) {
        values.slug = `${handle}/${String(values.app_name)}`.toLowerCase();
      }
      values.uuid ??= newUuid();
      values.should_track_latest_release ??= true;
    },
    async beforeUpdate(_ctx, ids, values) {
      if (values.app_name !== undefined) {
        checkName(values.app_name, 'fleet');
        if (ids.length > 1) throw badRequest('Rename one application at a time');
      }
    },
    async afterUpdate(ctx, ids, values) {
      if (values.app_name !== undefined) {
        await ctx.tx.query(
          `UPDATE "application" a SET "slug" = lower(o."handle" || '/' || a."app_name")
           FROM "organization" o WHERE o."id" = a."organization" AND a."id" = ANY($1::integer[])`,
          [[...ids]],
        );
      }
      if (values.should_track_latest_release === true) await refreshTrackedReleases(ctx, ids);
      if (
        values.should_be_running__release !== undefined &&
        values.should_track_latest_release === undefined
      ) {
        // Pinning a release stops tracking the latest one (balena's pinToRelease).
        await ctx.tx.query(
          `UPDATE "application" SET "should_track_latest_release" = false WHERE "id" = ANY($1::integer[]) AND $2::integer IS NOT NULL`,
          [[...ids], values.should_be_running__release],
        );
      }
    },
  });

  hooks.add('device', {
    async beforeCreate(_ctx, values) {
      values.uuid ??= newUuid();
      if (typeof values.uuid !== 'string' || !/^[0-9a-f]{32}([0-9a-f]{30})?$/.test(values.uuid)) {
        throw badRequest("'uuid' must be 32 or 62 lower-case hexadecimal characters");
      }
      if (values.device_name === undefined) values.device_name = values.uuid.slice(0, 7);
    },
  });
};
