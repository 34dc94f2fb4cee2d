import type { FlotillaClient } from '@flotilla/sdk/create-client';

// Seed 000 section 7: `POST /user/v1/refresh-token {password}` answers a session token whose
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
