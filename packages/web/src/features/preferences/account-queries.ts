import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { AccountType } from '@flotilla/shared/users/profile';

export const pendingEmailKey = (userId: number) => ['user-pending-email', userId] as const;

// The new address waiting for its verification link (PATCH /user/email with verification
// required), or null: served to its owner only (v7 user.pending_email, not a balena field).
export const fetchPendingEmail = async (
  client: FlotillaClient,
  userId: number,
): Promise<string | null> => {
  const user = await client.pine.get({
    resource: 'user',
    id: userId,
    options: { $select: ['pending_email'] },
  });
  return user?.pending_email ?? null;
};

export type ProfileChange = {
  first_name: string;
  last_name: string;
  company: string;
  account_type: AccountType | null;
  has_disabled_newsletter: boolean;
};

export const saveProfile = (client: FlotillaClient, change: ProfileChange) =>
  client.request<unknown>({ method: 'PATCH', path: '/user/profile', body: change });

// Changes the password; the server ends every other session and answers this one's new token.
export const changePassword = async (
  client: FlotillaClient,
  change: { currentPassword?: string; password: string },
): Promise<void> => {
  const token = await client.request<unknown>({
    method: 'PATCH',
    path: '/user/password',
    body: change,
  });
  if (typeof token !== 'string') throw new Error('The server answered without a session token');
  await client.auth.loginWithToken(token);
};

// Ends every other session of the account; this one continues with the new token.
export const logoutOtherSessions = async (client: FlotillaClient): Promise<void> => {
  const token = await client.request<unknown>({ method: 'POST', path: '/logout-others' });
  if (typeof token !== 'string') throw new Error('The server answered without a session token');
  await client.auth.loginWithToken(token);
};

// Seed 000 section 4: `{}` pending verification of the new address (an empty answer), or the
// address that replaced the old one.
export type EmailChange = { status: 'pending' } | { status: 'changed'; email: string };

export const changeEmail = async (
  client: FlotillaClient,
  change: { email: string; password: string },
): Promise<EmailChange> => {
  const answer = await client.request<unknown>({
    method: 'PATCH',
    path: '/user/email',
    body: change,
  });
  if (typeof answer === 'object' && answer !== null && 'email' in answer) {
    return { status: 'changed', email: String(answer.email) };
  }
  return { status: 'pending' };
};
