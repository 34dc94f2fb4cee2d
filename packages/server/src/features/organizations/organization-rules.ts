import type { Queryable } from '../../infra/db/database.js';
import { badRequest, conflict } from '../../infra/errors/api-error.js';
import type { WriteContext } from '../../infra/odata/hooks.js';

// Organization names are unique, ignoring case, among each user's organizations ("already
// used" otherwise). Checked for the acting user, under a per-user lock so two creations
// at once cannot both pass.
export const assertOrganizationNameFree = async (
  ctx: WriteContext,
  name: string,
  exceptIds: readonly number[] = [],
): Promise<void> => {
  if (ctx.actor.kind !== 'user') return;
  await ctx.tx.query(`SELECT pg_advisory_xact_lock(hashtext('flotilla-org-names'), $1)`, [
    ctx.actor.userId,
  ]);
  const { rows } = await ctx.tx.query<{ name: string }>(
    `SELECT o."name" FROM "organization" o
       JOIN "organization_membership" m ON m."is_member_of__organization" = o."id"
      WHERE m."user" = $1 AND lower(o."name") = lower($2) AND NOT (o."id" = ANY($3::integer[]))
      LIMIT 1`,
    [ctx.actor.userId, name, [...exceptIds]],
  );
  const taken = rows[0];
  if (taken) {
    throw conflict(`The name "${taken.name}" is already used by one of your organizations`);
  }
};

export const organizationNameOf = (value: unknown): string => {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name.length === 0) throw badRequest("'name' of 'organization' is required");
  return name;
};

// Serializes changes to one organization's administrators (two administrators demoting each
// other at once must not leave it with none).
export const lockOrganizations = async (tx: Queryable, ids: readonly number[]): Promise<void> => {
  if (ids.length === 0) return;
  await tx.query(
    'SELECT 1 FROM "organization" WHERE "id" = ANY($1::integer[]) ORDER BY "id" FOR UPDATE',
    [[...ids]],
  );
};

// An organization may be deleted only by its sole administrator (a platform administrator may
// too), and only once it holds no fleets: the console deletes them first, after the user typed
// the organization's name.
export const assertOrganizationsDeletable = async (
  ctx: WriteContext,
  ids: readonly number[],
): Promise<void> => {
  const { rows } = await ctx.tx.query<{
    id: number;
    name: string;
    administrators: number[];
    fleets: number;
  }>(
    `SELECT o."id", o."name",
            coalesce((SELECT array_agg(m."user") FROM "organization_membership" m
                        JOIN "organization_membership_role" r ON r."id" = m."organization_membership_role"
                       WHERE m."is_member_of__organization" = o."id" AND r."name" = 'administrator'), '{}') AS "administrators",
            (SELECT count(*)::integer FROM "application" a WHERE a."organization" = o."id") AS "fleets"
       FROM "organization" o WHERE o."id" = ANY($1::integer[])`,
    [[...ids]],
  );
  const platformAdmin =
    ctx.actor.kind === 'user' && ctx.actor.platformPermissions.includes('admin.home');
  const actorUser = ctx.actor.kind === 'user' ? ctx.actor.userId : null;
  for (const organization of rows) {
    if (!platformAdmin && actorUser !== null) {
      const others = organization.administrators.filter((user) => user !== actorUser);
      if (others.length > 0) {
        throw badRequest(
          `"${organization.name}" has other administrators: only its sole administrator can delete it`,
        );
      }
    }
    if (organization.fleets > 0) {
      throw badRequest(
        `"${organization.name}" still has ${organization.fleets} fleet${organization.fleets === 1 ? '' : 's'}: delete ${organization.fleets === 1 ? 'it' : 'them'} first`,
      );
    }
  }
};
