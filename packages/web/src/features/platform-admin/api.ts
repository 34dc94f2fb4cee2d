import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { errorText } from '@flotilla/sdk/errors';
import {
  adminReturnTokenKey,
  adminUserPageSize,
  type AdminUserPage,
} from '@flotilla/shared/users/admin-users';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useClient } from '../../api/client.js';
import { useSession } from '../../api/session/useSession.js';
import { useToasts } from '../../ui/toasts.js';
import { tabStorage } from './admin-session.js';
import { platformAdminKeys } from './query-keys.js';

// GET /admin/v1/users (features/platform-admin on the server): one page, searched on the server.
const adminUsersQuery = (client: FlotillaClient, search: string, page: number) => ({
  queryKey: platformAdminKeys.users(search, page),
  queryFn: () =>
    client.request<AdminUserPage>({
      path: '/admin/v1/users',
      query: { search, limit: adminUserPageSize, offset: page * adminUserPageSize },
    }),
});

// Login-as: PATCH /login_ {username} answers the user's token (actualUser: the administrator).
// The administrator's own token is kept to come back to (returnToAdmin). `beforeSwitch` runs just
// before the session changes: the caller empties its query cache there, not after (a query the
// new session already started would be dropped from the cache while screens wait on it).
const loginAs = async (
  client: FlotillaClient,
  username: string,
  beforeSwitch: () => void = () => undefined,
): Promise<void> => {
  const own = client.auth.getToken();
  const token = await client.request<string>({
    method: 'PATCH',
    path: '/login_',
    body: { username },
  });
  if (own !== null) tabStorage()?.setItem(adminReturnTokenKey, own);
  beforeSwitch();
  await client.auth.loginWithToken(token);
};

// Back to the administrator's own session; false when it is not kept (another tab, closed tab)
// or expired, in which case the caller signs out.
const returnToAdmin = async (
  client: FlotillaClient,
  beforeSwitch: () => void = () => undefined,
): Promise<boolean> => {
  const storage = tabStorage();
  const own = storage?.getItem(adminReturnTokenKey) ?? null;
  storage?.removeItem(adminReturnTokenKey);
  if (own === null) return false;
  beforeSwitch();
  try {
    await client.auth.loginWithToken(own);
    return true;
  } catch {
    // Expired meanwhile (36 h): the administrator signs in again.
    return false;
  }
};

// One page of users; the previous page stays shown while the next loads.
export const useAdminUsers = (search: string, page: number) => {
  const client = useClient();
  return useQuery({ ...adminUsersQuery(client, search, page), placeholderData: keepPreviousData });
};

// "Log in as": the cache is emptied just before the session changes, then the console opens as
// the user.
export const useLoginAs = () => {
  const client = useClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toasts = useToasts();
  return useMutation({
    mutationFn: (username: string) => loginAs(client, username, () => queryClient.clear()),
    onSuccess: () => {
      void navigate('/');
    },
    onError: (error) => toasts.show('error', errorText(error) ?? 'Could not log in as this user'),
  });
};

// Back to the administrator's own session, or signed out when it is not kept any more.
export const useReturnToAdmin = () => {
  const client = useClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (): Promise<void> => {
    const back = await returnToAdmin(client, () => queryClient.clear());
    if (back) {
      void navigate('/admin');
    } else {
      client.auth.logout();
      void navigate('/login');
    }
  };
};

// Who is signed in, as the account menu reads it (one request for both); asked only while an
// administrator acts as the user.
export const useImpersonatedUser = () => {
  const client = useClient();
  const session = useSession();
  return useQuery({
    queryKey: platformAdminKeys.whoami(session?.userId),
    queryFn: () => client.auth.whoami(),
    enabled: session?.actualUser !== undefined,
  });
};
