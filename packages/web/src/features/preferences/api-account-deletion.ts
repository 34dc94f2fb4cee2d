import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { preferenceKeys } from './query-keys.js';

const fetchDeletionPreview = (client: FlotillaClient) =>
  client.request<{ organizations: { id: number; name: string }[] }>({
    path: '/user/v1/delete-account',
  });

// The organizations the deletion takes along (those the user administers alone).
export const useDeletionPreview = () => {
  const client = useClient();
  return useQuery({
    queryKey: preferenceKeys.deletionPreview,
    queryFn: () => fetchDeletionPreview(client),
  });
};

// Re-authentication (POST /user/v1/refresh-token with the password): a wrong password fails here,
// before anything is deleted.
const verifyPassword = async (client: FlotillaClient, password: string): Promise<void> => {
  const token = await client.request<unknown>({
    method: 'POST',
    path: '/user/v1/refresh-token',
    body: { password },
  });
  if (typeof token !== 'string') throw new Error('The server answered without a session token');
  await client.auth.loginWithToken(token);
};

const deleteAccount = (client: FlotillaClient, password: string) =>
  client.request<{ deletedOrganizations: string[] }>({
    method: 'POST',
    path: '/user/v1/delete-account',
    body: { password },
  });

// The steps of an account deletion, run one after the other by the dialog that shows them.
export const useAccountDeletion = () => {
  const client = useClient();
  return {
    verifyPassword: (password: string) => verifyPassword(client, password),
    deleteAccount: (password: string) => deleteAccount(client, password),
    logout: () => client.auth.logout(),
  };
};
