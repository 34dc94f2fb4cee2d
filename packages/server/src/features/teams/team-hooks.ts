import { type AnyRole, highestRole, rolePrecedence } from '@flotilla/shared/permissions/roles';
import type { Queryable, SqlValue } from '../../infra/db/database.js';
import { badRequest, conflict, forbidden } from '../../infra/errors/api-error.js';
import type { HookRegistry, Values, WriteContext } from '../../infra/odata/hooks.js';
import { assertAccessRemovable } from '../memberships/member-removal-devices.js';

const teamNameOf = (value: unknown): string => {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name.length === 0) throw badRequest("'name' of 'team' is required");
  return name;
};

// Team names are unique within their organization, ignoring case (the
// database's team_organization_lower_name_key holds it against races).
const assertTeamNameFree = async (
  tx: Queryable,
  organizationId: number,
  name: string,
  exceptIds: readonly number[] = [],
): Promise<void> => {
  const { rows } = await tx.query<{ name: string }>(
    `SELECT "name" FROM "team" WHERE "belongs_to__organization" = $1 AND lower("name") = lower($2)
       AND NOT ("id" = ANY($3::integer[])) LIMIT 1`,
    [organizationId, name, [...exceptIds]],
  );
  const taken = rows[0];
  if (taken) {
    throw conflict(`The name "${taken.name}" is already used by a team of this organization`);
  }
};

// Rank of a role: lower is higher (rolePrecedence).
const rank = (role: string): number => {
  const index = rolePrecedence.findIndex((name) => name === role);
  return index === -1 ? rolePrecedence.length : index;
};

// The actor's highest role on the fleet (the fleet_access view; platform roles do not count).
const actorRoleOn = async (ctx: WriteContext, applicationId: number): Promise<AnyRole | null> => {
  if (ctx.actor.kind !== 'user') return null;
  const { rows } = await ctx.tx.query<{ role: AnyRole }>(
    'SELECT "role" FROM "fleet_access" WHERE "user" = $1 AND "application" = $2',
    [ctx.actor.userId, applicationId],
  );
  return rows.length === 0 ? null : highestRole(rows.map((row) => row.role));
};

const roleNameOf = async (tx: Queryable, roleId: SqlValue | undefined): Promise<string> => {
  const { rows } = await tx.query<{ name: string }>(
    'SELECT "name" FROM "application_membership_role" WHERE "id" = $1',
    [roleId ?? null],
  );
  const name = rows[0]?.name;
  if (name === undefined) throw badRequest('Unknown fleet role');
  return name;
};

// A team access never grants more than its granter holds: administrators grant any role,
// developers and limited developers up to their own.
const assertMayGrant = async (
  ctx: WriteContext,
  applicationId: number,
  role: string,
): Promise<void> => {
  if (ctx.actor.kind === 'user' && ctx.actor.platformPermissions.includes('admin.home')) return;
  const own = await actorRoleOn(ctx, applicationId);
  if (own === null || rank(role) < rank(own)) {
    throw forbidden(`Your role on this fleet does not allow granting the role ${role}`);
  }
};

type AccessRow = { application: number; role: string };

const accessesOf = async (tx: Queryable, ids: readonly number[]): Promise<AccessRow[]> => {
  const { rows } = await tx.query<AccessRow>(
    `SELECT taa."grants_access_to__application" AS "application", r."name" AS "role"
       FROM "team_application_access" taa
       JOIN "application_membership_role" r ON r."id" = taa."application_membership_role"
      WHERE taa."id" = ANY($1::integer[])`,
    [[...ids]],
  );
  return rows;
};

const assertSameOrganization = async (tx: Queryable, values: Values): Promise<void> => {
  const { rows } = await tx.query<{ same: boolean }>(
    `SELECT t."belongs_to__organization" = a."organization" AS "same"
       FROM "team" t, "application" a WHERE t."id" = $1 AND a."id" = $2`,
    [values.team ?? null, values.grants_access_to__application ?? null],
  );
  if (rows[0]?.same !== true) {
    throw badRequest('A team can only be given access to fleets of its own organization');
  }
};

// Teams: unique names, members from the organization, and fleet
// accesses within the organization that never exceed their granter's role.
export const registerTeamHooks = (hooks: HookRegistry): void => {
  hooks.add('team', {
    async beforeCreate(ctx, values) {
      const name = teamNameOf(values.name);
      values.name = name;
      await assertTeamNameFree(ctx.tx, Number(values.belongs_to__organization), name);
    },
    async beforeUpdate(ctx, ids, values) {
      if (!('name' in values)) return;
      const name = teamNameOf(values.name);
      values.name = name;
      const { rows } = await ctx.tx.query<{ organization: number }>(
        'SELECT DISTINCT "belongs_to__organization" AS "organization" FROM "team" WHERE "id" = ANY($1::integer[])',
        [[...ids]],
      );
      if (ids.length > 1 && rows.length < ids.length) {
        throw conflict(`The name "${name}" would be used by several teams of one organization`);
      }
      for (const row of rows) await assertTeamNameFree(ctx.tx, row.organization, name, ids);
    },
    // Deleting a team ends its members' fleet accesses through it.
    beforeDelete: (ctx, ids) => assertAccessRemovable(ctx.tx, { teams: ids }),
  });
  hooks.add('team_membership', {
    async beforeCreate(ctx, values) {
      const { rows } = await ctx.tx.query<{ username: string; member: boolean }>(
        `SELECT u."username", EXISTS (
                  SELECT 1 FROM "organization_membership" m JOIN "team" t
                    ON t."belongs_to__organization" = m."is_member_of__organization"
                   WHERE t."id" = $2 AND m."user" = u."id") AS "member"
           FROM "user" u WHERE u."id" = $1`,
        [values.user ?? null, values.is_member_of__team ?? null],
      );
      const row = rows[0];
      if (row && !row.member) {
        throw badRequest(`${row.username} is not a member of the team's organization`);
      }
    },
    beforeDelete: (ctx, ids) => assertAccessRemovable(ctx.tx, { teamMemberships: ids }),
  });
  hooks.add('team_application_access', {
    async prepareCreate(ctx, body) {
      if (body.application_membership_role !== undefined) return;
      const { rows } = await ctx.tx.query<{ id: number }>(
        `SELECT "id" FROM "application_membership_role" WHERE "name" = 'developer'`,
      );
      body.application_membership_role = rows[0]?.id;
    },
    async beforeCreate(ctx, values) {
      await assertSameOrganization(ctx.tx, values);
      await assertMayGrant(
        ctx,
        Number(values.grants_access_to__application),
        await roleNameOf(ctx.tx, values.application_membership_role),
      );
    },
    async beforeUpdate(ctx, ids, values) {
      const current = await accessesOf(ctx.tx, ids);
      const next =
        'application_membership_role' in values
          ? await roleNameOf(ctx.tx, values.application_membership_role)
          : undefined;
      for (const access of current) {
        await assertMayGrant(ctx, access.application, access.role);
        if (next !== undefined) await assertMayGrant(ctx, access.application, next);
      }
    },
    async beforeDelete(ctx, ids) {
      for (const access of await accessesOf(ctx.tx, ids)) {
        await assertMayGrant(ctx, access.application, access.role);
      }
      await assertAccessRemovable(ctx.tx, { teamAccesses: ids });
    },
  });
};
