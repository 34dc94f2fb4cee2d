import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { useMutation } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';

// `POST /user/v1/refresh-token {password}` answers a session token whose
// authTime is now, which opens the re-authentication window again; the session continues with it.
export const reauthenticate = async (client: FlotillaClient, password: string): Promise<void> => {
  const token = await client.request<unknown>({
    method: 'POST',
    path: '/user/v1/refresh-token',
    body: { password },
  });
  if (typeof token !== 'string') throw new Error('The server answered without a session token');
  await client.auth.loginWithToken(token);
};

// Confirms the password; the dialog shows the error itself.
export const useReauthenticate = (onConfirmed: () => void) => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (password: string) => reauthenticate(client, password),
    onSuccess: onConfirmed,
  });
};
