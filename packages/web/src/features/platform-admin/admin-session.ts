import type { FlotillaClient } from '@flotilla/sdk/create-client';
import {
  adminReturnTokenKey,
  adminUserPageSize,
  type AdminUserPage,
} from '@flotilla/shared/users/admin-users';

// GET /admin/v1/users (features/platform-admin on the server): one page, searched on the server.
export const adminUsersQuery = (client: FlotillaClient, search: string, page: number) => ({
  queryKey: ['admin-users', search, page] as const,
  queryFn: () =>
    client.request<AdminUserPage>({
      path: '/admin/v1/users',
      query: { search, limit: adminUserPageSize, offset: page * adminUserPageSize },
    }),
});

// sessionStorage: the administrator's own token stays with this tab only and is gone when the
// tab closes; it may be missing or throw (privacy modes), then there is simply no way back.
const tabStorage = (): Storage | null => {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
};

// Login-as: PATCH /login_ {username} answers the user's token (actualUser: the administrator).
// The administrator's own token is kept to come back to (returnToAdmin). `beforeSwitch` runs just
// before the session changes: the caller empties its query cache there, not after (a query the
// new session already started would be dropped from the cache while screens wait on it).
export const loginAs = async (
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
export const returnToAdmin = async (
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

// Signing out forgets the kept token too.
export const forgetAdminReturn = (): void => {
  tabStorage()?.removeItem(adminReturnTokenKey);
};
