import type { FlotillaClient } from '@flotilla/sdk/create-client';

export const authorizedApplicationsKey = (userId: number | undefined) =>
  ['oauth-authorizations', userId] as const;

// The applications the user has authorized (their own oauth_application_authorization rows; the
// server serves no one else's), oldest first.
export const fetchAuthorizedApplications = (client: FlotillaClient, userId: number) =>
  client.pine.get({
    resource: 'oauth_application_authorization',
    options: {
      $select: ['id', 'created_at'],
      $filter: { belongs_to__user: userId },
      $expand: {
        is_for__oauth_application: { $select: ['id', 'name', 'description', 'redirect_uri'] },
      },
      $orderby: [{ created_at: 'asc' }, { id: 'asc' }],
    },
  });

export type AuthorizationRow = Awaited<ReturnType<typeof fetchAuthorizedApplications>>[number];

// Revoking also ends the application's unused codes for the user (server trigger, migration 0024).
export const revokeAuthorization = (client: FlotillaClient, id: number) =>
  client.pine.delete({ resource: 'oauth_application_authorization', id });
