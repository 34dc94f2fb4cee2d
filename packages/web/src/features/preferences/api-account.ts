import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { AccountType } from '@flotilla/shared/users/profile';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { fetchProfile } from '../../api/session/profile-query.js';
import { useSession } from '../../api/session/useSession.js';
import { passwordChanged } from '../../api/session/password-limit.js';
import { requestVerificationEmail } from '../email-verification/api.js';
import { preferenceKeys } from './query-keys.js';

// The new address waiting for its verification link (PATCH /user/email with verification
// required), or null: served to its owner only (v7 user.pending_email, not a balena field).
const fetchPendingEmail = async (
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

const saveProfile = (client: FlotillaClient, change: ProfileChange) =>
  client.request<unknown>({ method: 'PATCH', path: '/user/profile', body: change });

// Changes the password; the server ends every other session and answers this one's new token.
const changePassword = async (
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
const logoutOtherSessions = async (client: FlotillaClient): Promise<void> => {
  const token = await client.request<unknown>({ method: 'POST', path: '/logout-others' });
  if (typeof token !== 'string') throw new Error('The server answered without a session token');
  await client.auth.loginWithToken(token);
};

// `{}`: pending verification of the new address (an empty answer), or the
// address that replaced the old one.
export type EmailChange = { status: 'pending' } | { status: 'changed'; email: string };

const changeEmail = async (
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

// The signed-in user's own profile (null before sign-in).
export const useProfile = (userId: number | undefined) => {
  const client = useClient();
  return useQuery({
    queryKey: preferenceKeys.profile(userId),
    queryFn: () => (userId === undefined ? null : fetchProfile(client, userId)),
  });
};

export const usePendingEmail = (userId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: preferenceKeys.pendingEmail(userId),
    queryFn: () => fetchPendingEmail(client, userId),
  });
};

// Saves the profile; `onSaved` runs once the shell's profile is fresh again.
export const useSaveProfile = (onSaved?: () => void) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const userId = useSession()?.userId;
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (change: ProfileChange) => saveProfile(client, change),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: preferenceKeys.profile(userId) });
      onSaved?.();
    },
  });
};

// `confirmed`: runs the change, asking the person to re-authenticate when the server wants it (a
// first password on an account that signs in through a provider).
export const useChangePassword = (
  onChanged: () => void,
  confirmed: (change: () => Promise<void>) => Promise<void> = (change) => change(),
) => {
  const client = useClient();
  const userId = useSession()?.userId;
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (change: { currentPassword?: string; password: string }) =>
      confirmed(() => changePassword(client, change)),
    onSuccess: () => {
      if (userId !== undefined) passwordChanged(userId);
      onChanged();
    },
  });
};

export const useLogoutOtherSessions = () => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: () => logoutOtherSessions(client),
  });
};

// A new address: the profile and the pending address are read again whatever the answer was.
export const useChangeEmail = (userId: number, onChanged: () => void) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (change: { email: string; password: string }) => changeEmail(client, change),
    onSuccess: () => {
      onChanged();
      void queryClient.invalidateQueries({ queryKey: preferenceKeys.profile(userId) });
      void queryClient.invalidateQueries({ queryKey: preferenceKeys.pendingEmail(userId) });
    },
  });
};

export const useResendVerification = (userId: number) => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: () => requestVerificationEmail(client, userId),
  });
};
