import { defaultApplicationMembershipRole } from '@flotilla/shared/permissions/roles';
import { badRequest } from '../../infra/errors/api-error.js';
import type { HookRegistry } from '../../infra/odata/hooks.js';
import { assertAccessRemovable } from './member-removal-devices.js';
import { ensureOrganizationMember } from './organization-member.js';

// Membership rows the SDK creates with `username` instead of a user id (application.membership,
// team membership, organization membership).
export const membershipResources = [
  'user_application_membership',
  'team_membership',
  'organization_membership',
] as const;

export const registerMembershipHooks = (hooks: HookRegistry): void => {
  for (const resource of membershipResources) {
    hooks.add(resource, {
      async prepareCreate(ctx, body) {
        if (!('username' in body)) return;
        const username = body.username;
        delete body.username;
        if (typeof username !== 'string' || username.length === 0) {
          throw badRequest("'username' must be a non-empty string");
        }
        if (body.user !== undefined) throw badRequest("Give either 'user' or 'username', not both");
        // Usernames are unique ignoring case (user_username_lower_key): at most one row.
        const { rows } = await ctx.tx.query<{ id: number }>(
          'SELECT "id" FROM "user" WHERE lower("username") = lower($1)',
          [username],
        );
        const id = rows[0]?.id;
        if (id === undefined) throw badRequest(`User not found: ${username}`);
        body.user = id;
      },
    });
  }

  hooks.add('user_application_membership', {
    // balena-sdk's membership.create leaves the role out when given no roleName.
    async prepareCreate(ctx, body) {
      if (body.application_membership_role !== undefined) return;
      const { rows } = await ctx.tx.query<{ id: number }>(
        'SELECT "id" FROM "application_membership_role" WHERE "name" = $1',
        [defaultApplicationMembershipRole],
      );
      body.application_membership_role = rows[0]?.id;
    },
    // A fleet member is a member of the fleet's organization: added as "member" when not yet.
    async beforeCreate(ctx, values) {
      const { rows } = await ctx.tx.query<{ organization: number }>(
        'SELECT "organization" FROM "application" WHERE "id" = $1',
        [values.is_member_of__application ?? null],
      );
      const organization = rows[0]?.organization;
      if (organization === undefined || typeof values.user !== 'number') return;
      await ensureOrganizationMember(ctx.tx, values.user, organization);
    },
    beforeDelete: (ctx, ids) => assertAccessRemovable(ctx.tx, { fleetMemberships: ids }),
  });
};
