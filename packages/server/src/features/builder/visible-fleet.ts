import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { notFound } from '../../infra/errors/api-error.js';
import { resourceOf } from '../../infra/odata/compile-context.js';
import { createPermissionFilter } from '../../infra/odata/permissions.js';
import { createSqlParams } from '../../infra/odata/sql-params.js';

export type VisibleFleet = { id: number; slug: string; uuid: string };

export const fleetNotFoundMessage = (slug: string): string => `Fleet ${slug} not found`;

// How an entry point names the fleet: by its slug (the git remote's URL), or by its organization's
// handle and its name (/v3/buildFromUrl's owner and app), each in any case.
export type FleetName = { slug: string } | { owner: string; app: string };

const shownName = (name: FleetName): string =>
  'slug' in name ? name.slug : `${name.owner}/${name.app}`;

// The fleet a builder entry point names, as the actor may know it: a fleet the actor cannot see
// gets exactly the answer of one that does not exist (404 "Fleet <owner>/<name> not found"), so
// nobody can probe fleet names. Whether the actor may create its releases is checked after
// (assertCanCreateRelease): a fleet they see but may not build says so.
export const visibleFleet = async (
  ctx: Pick<AppContext, 'db' | 'model'>,
  actor: Actor,
  name: FleetName,
): Promise<VisibleFleet> => {
  const params = createSqlParams(actor);
  const readable = createPermissionFilter(params)(
    resourceOf(ctx.model, 'application'),
    'read',
    '"a"',
  );
  const missing = notFound(fleetNotFoundMessage(shownName(name)));
  if (readable === null) throw missing;
  const named =
    'slug' in name
      ? `"a"."slug" = lower(${params.add(name.slug)})`
      : `"a"."organization" IN (SELECT "id" FROM "organization"
                                 WHERE lower("handle") = lower(${params.add(name.owner)}))
         AND lower("a"."app_name") = lower(${params.add(name.app)})`;
  const { rows } = await ctx.db.query<VisibleFleet>(
    `SELECT "a"."id", "a"."slug", "a"."uuid" FROM "application" "a"
      WHERE ${named} AND ${readable} LIMIT 1`,
    params.values(),
  );
  const fleet = rows[0];
  if (!fleet) throw missing;
  return fleet;
};
