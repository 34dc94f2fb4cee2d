import type { Queryable } from '../../infra/db/database.js';
import { badRequest } from '../../infra/errors/api-error.js';
import type { HookRegistry } from '../../infra/odata/hooks.js';
import { lockOrganizations } from '../organizations/organization-rules.js';
import { assertAccessRemovable } from './member-removal-devices.js';

type MembershipRow = { id: number; user: number; organization: number; is_admin: boolean };

const membershipsOf = async (tx: Queryable, ids: readonly number[]): Promise<MembershipRow[]> => {
  const { rows } = await tx.query<MembershipRow>(
    `SELECT m."id", m."user", m."is_member_of__organization" AS "organization",
            r."name" = 'administrator' AS "is_admin"
       FROM "organization_membership" m
       JOIN "organization_membership_role" r ON r."id" = m."organization_membership_role"
      WHERE m."id" = ANY($1::integer[])`,
    [[...ids]],
  );
  return rows;
};

// Each organization losing administrators among `rows` keeps at least one that is not among them.
const assertAdministratorsRemain = async (
  tx: Queryable,
  rows: readonly MembershipRow[],
): Promise<void> => {
  const losing = [...new Set(rows.filter((row) => row.is_admin).map((row) => row.organization))];
  if (losing.length === 0) return;
  await lockOrganizations(tx, losing);
  const { rows: left } = await tx.query<{ organization: number }>(
    `SELECT m."is_member_of__organization" AS "organization"
       FROM "organization_membership" m
       JOIN "organization_membership_role" r ON r."id" = m."organization_membership_role"
      WHERE r."name" = 'administrator' AND m."is_member_of__organization" = ANY($1::integer[])
        AND NOT (m."id" = ANY($2::integer[]))
      GROUP BY 1`,
    [losing, rows.map((row) => row.id)],
  );
  const keeping = new Set(left.map((row) => row.organization));
  if (losing.some((organization) => !keeping.has(organization))) {
    throw badRequest(
      'An organization needs at least one administrator: make someone else administrator first',
    );
  }
};

const administratorRoleId = async (tx: Queryable): Promise<number | undefined> => {
  const { rows } = await tx.query<{ id: number }>(
    `SELECT "id" FROM "organization_membership_role" WHERE "name" = 'administrator'`,
  );
  return rows[0]?.id;
};

// The last administrator of an organization can be neither removed,
// nor demoted, nor leave. Leaving (or being removed from) an organization also ends the person's
// team memberships and direct fleet memberships there, so no access outlives the membership.
export const registerOrganizationMembershipRules = (hooks: HookRegistry): void => {
  hooks.add('organization_membership', {
    async beforeUpdate(ctx, ids, values) {
      if (!('organization_membership_role' in values)) return;
      const administrator = await administratorRoleId(ctx.tx);
      if (values.organization_membership_role === administrator) return;
      await assertAdministratorsRemain(ctx.tx, await membershipsOf(ctx.tx, ids));
      // A demoted administrator loses the fleets they reached only as administrator.
      await assertAccessRemovable(ctx.tx, { demotedMemberships: ids });
    },
    async beforeDelete(ctx, ids) {
      const rows = await membershipsOf(ctx.tx, ids);
      await assertAdministratorsRemain(ctx.tx, rows);
      await assertAccessRemovable(ctx.tx, { organizationMemberships: ids });
      for (const row of rows) {
        await ctx.tx.query(
          `DELETE FROM "team_membership" tm USING "team" t
            WHERE t."id" = tm."is_member_of__team" AND tm."user" = $1
              AND t."belongs_to__organization" = $2`,
          [row.user, row.organization],
        );
        await ctx.tx.query(
          `DELETE FROM "user_application_membership" uam USING "application" a
            WHERE a."id" = uam."is_member_of__application" AND uam."user" = $1
              AND a."organization" = $2`,
          [row.user, row.organization],
        );
      }
    },
  });
};
