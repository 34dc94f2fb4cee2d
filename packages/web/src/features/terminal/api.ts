import { errorText, FlotillaApiError } from '@flotilla/sdk/errors';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useClient } from '../../api/client.js';
import { terminalKeys } from './query-keys.js';

// GET /access/v1/hostos/:uuid: '' when the host OS is open, else why not
// (a 401 says: an OS version too old for it).
export const useHostOsAccess = (uuid: string, enabled: boolean): string | null => {
  const client = useClient();
  const check = useQuery({
    queryKey: terminalKeys.hostOsAccess(uuid),
    queryFn: async (): Promise<string> => {
      try {
        await client.request<unknown>({ path: `/access/v1/hostos/${encodeURIComponent(uuid)}` });
        return '';
      } catch (error) {
        if (error instanceof FlotillaApiError && error.status === 401) {
          return errorText(error) ?? 'Host OS access is not available on this device';
        }
        throw error;
      }
    },
    enabled,
    retry: false,
  });
  if (check.isError) return 'Host OS (the access check failed)';
  return check.data ?? null;
};

// The user's session token, read when a terminal connects (it authenticates the socket).
export const useSessionToken = (): (() => string | undefined) => {
  const client = useClient();
  return useCallback(() => client.auth.getToken() ?? undefined, [client]);
};
