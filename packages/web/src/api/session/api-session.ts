import { useQuery } from '@tanstack/react-query';
import { useClient } from '../client.js';
import { sessionKeys } from './query-keys.js';
import { useSession } from './useSession.js';

// Who the signed-in session belongs to (GET /user/v1/whoami), per user.
export const useWhoami = () => {
  const client = useClient();
  const session = useSession();
  return useQuery({
    queryKey: sessionKeys.whoami(session?.userId),
    queryFn: () => client.auth.whoami(),
  });
};

export const useLogout = () => {
  const client = useClient();
  return () => client.auth.logout();
};

// The session token (handed to the CLI by its login page), or '' without one.
export const useSessionToken = (): string => {
  const client = useClient();
  return client.auth.getToken() ?? '';
};
