import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useClient } from '../../api/client.js';
import { useStore } from './useExternalStore.js';
import { shellKeys } from './query-keys.js';
import { avatarUrlOf } from './avatar.js';

// GET /config, read once per visit: it changes only with a new deployment.
export const usePublicConfig = () => {
  const client = useClient();
  return useQuery({
    queryKey: shellKeys.config(),
    queryFn: () => client.config(),
    staleTime: Infinity,
  });
};

export const useWhoami = (userId: number | undefined) => {
  const client = useClient();
  return useQuery({
    queryKey: shellKeys.whoami(userId),
    queryFn: () => client.auth.whoami(),
  });
};

// The user's picture from the avatar service the operator enabled (GET /config avatarUrl), or
// null: none enabled (nothing is asked of any third party), or no address known yet.
export const useAvatarUrl = (email: string | null | undefined): string | null => {
  const config = usePublicConfig();
  const template = config.data?.avatarUrl ?? null;
  const avatar = useQuery({
    queryKey: shellKeys.avatar(template, email ?? null),
    queryFn: () => avatarUrlOf(template ?? '', email ?? ''),
    enabled: template !== null && typeof email === 'string' && email !== '',
    staleTime: Infinity,
  });
  return template === null ? null : (avatar.data ?? null);
};

// Whether the SDK's connectivity check declares the connection lost, and a retry right now.
export const useConnectivity = () => {
  const client = useClient();
  const lost = useStore(
    (listener) => client.connectivity.subscribe(() => listener()),
    () => client.connectivity.getState().lost,
  );
  const retryNow = useCallback(() => client.connectivity.retryNow(), [client]);
  return { lost, retryNow };
};

// Until when the API throttles the console's requests, or null.
export const useThrottledUntil = (): number | null => {
  const client = useClient();
  return useStore(
    (listener) => client.throttle.subscribe(() => listener()),
    () => client.throttle.getNotice()?.until ?? null,
  );
};

// Signs out: the SDK forgets the session token.
export const useLogout = () => {
  const client = useClient();
  return useCallback(() => client.auth.logout(), [client]);
};
