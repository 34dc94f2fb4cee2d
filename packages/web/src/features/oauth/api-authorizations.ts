import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { useSession } from '../../api/session/useSession.js';
import { oauthKeys } from './query-keys.js';

// The applications the user has authorized (their own oauth_application_authorization rows; the
// server serves no one else's), oldest first.
const fetchAuthorizedApplications = (client: FlotillaClient, userId: number) =>
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
const revokeAuthorization = (client: FlotillaClient, id: number) =>
  client.pine.delete({ resource: 'oauth_application_authorization', id });

export const useAuthorizedApplications = () => {
  const client = useClient();
  const userId = useSession()?.userId;
  return useQuery({
    queryKey: oauthKeys.authorizations(userId),
    queryFn: () => (userId === undefined ? [] : fetchAuthorizedApplications(client, userId)),
    enabled: userId !== undefined,
  });
};

// The list is read again whether the revocation worked or not.
export const useRevokeAuthorization = (onRevoked: (row: AuthorizationRow) => void) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const userId = useSession()?.userId;
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (row: AuthorizationRow) => revokeAuthorization(client, row.id),
    onSuccess: (_result, row) => onRevoked(row),
    onSettled: () => queryClient.invalidateQueries({ queryKey: oauthKeys.authorizations(userId) }),
  });
};
