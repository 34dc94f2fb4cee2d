import type { FlotillaClient } from '@flotilla/sdk/create-client';

// Seed 000 section 4: the steps of an account deletion, in order, each pending, in progress, done
// or failed.
export type StepStatus = 'pending' | 'inprogress' | 'done' | 'failed';
export const deletionSteps = [
  'Verify your password',
  'Cancel subscriptions',
  'Delete the organizations you administer alone',
  'Delete your account',
] as const;

// Seed 000 section 4: success is shown this long before the console logs out.
export const logoutDelayMs = 2000;

// Seed 000 section 8.2: deletion errors ask to contact support, unless they mention it already.
export const deletionErrorText = (message: string): string =>
  /support|sales/i.test(message) ? message : `${message} If it keeps failing, contact support.`;

export const deletionPreviewKey = ['account-deletion-preview'] as const;

export const fetchDeletionPreview = (client: FlotillaClient) =>
  client.request<{ organizations: { id: number; name: string }[] }>({
    path: '/user/v1/delete-account',
  });

// Re-authentication (POST /user/v1/refresh-token with the password): a wrong password fails here,
// before anything is deleted.
export const verifyPassword = async (client: FlotillaClient, password: string): Promise<void> => {
  const token = await client.request<unknown>({
    method: 'POST',
    path: '/user/v1/refresh-token',
    body: { password },
  });
  if (typeof token !== 'string') throw new Error('The server answered without a session token');
  await client.auth.loginWithToken(token);
};

export const deleteAccount = (client: FlotillaClient, password: string) =>
  client.request<{ deletedOrganizations: string[] }>({
    method: 'POST',
    path: '/user/v1/delete-account',
    body: { password },
  });
