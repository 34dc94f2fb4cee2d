import { twoFactorApi } from '@flotilla/sdk/two-factor';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { useSession } from '../../api/session/useSession.js';
import { preferenceKeys } from './query-keys.js';

// Who is signed in, as the account menu reads it (one request for both).
export const useWhoami = () => {
  const client = useClient();
  const session = useSession();
  return useQuery({
    queryKey: preferenceKeys.whoami(session?.userId),
    queryFn: () => client.auth.whoami(),
  });
};

// The two-factor requests (a new secret, its first code, recovery codes, disabling); the screens
// run them in their mutations, some behind a fresh authentication.
export const useTwoFactor = () => twoFactorApi(useClient());
