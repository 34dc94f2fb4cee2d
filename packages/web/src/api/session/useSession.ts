import type { Session } from '@flotilla/sdk/auth';
import { useMemo, useSyncExternalStore } from 'react';
import { useClient } from '../client.js';

// The signed-in session (decoded token) or null, re-rendering on login, logout and refresh. The
// store snapshot is the token string, which stays identical between changes.
export const useSession = (): Session | null => {
  const client = useClient();
  const token = useSyncExternalStore(
    (listener) => client.auth.subscribe(() => listener()),
    () => client.auth.getToken(),
  );
  return useMemo(() => (token ? client.auth.session() : null), [client, token]);
};

export const isAdmin = (session: Session | null): boolean =>
  session?.permissions.includes('admin.home') === true;
