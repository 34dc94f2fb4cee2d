import { badRequest } from '../../infra/errors/api-error.js';
import type { HookRegistry } from '../../infra/odata/hooks.js';

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
};
