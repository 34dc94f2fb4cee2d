import type { FlotillaClient } from '@flotilla/sdk/create-client';
import {
  type SocialExchangeAnswer,
  type SocialProvider,
  isSocialProvider,
} from '@flotilla/shared/social-auth/social-providers';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { usePublicConfig } from '../../api/config/api.js';
import { socialAuthKeys } from './query-keys.js';

// Social sign-in's calls: the providers the server offers, the exchange of the provider's answer,
// the password that links a pending account, and the account's linked accounts.

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

// The server's answer, checked (an answer of another shape is an error, never a half sign-in).
const parseAnswer = (body: unknown): SocialExchangeAnswer => {
  if (isRecord(body)) {
    const { outcome, token, linkToken, email, hasPassword } = body;
    if (outcome === 'signed-in' && typeof token === 'string') return { outcome, token };
    if (outcome === 'reauthenticated' && typeof token === 'string') return { outcome, token };
    if (outcome === 'linked') return { outcome };
    if (
      outcome === 'link-required' &&
      typeof linkToken === 'string' &&
      typeof email === 'string' &&
      typeof hasPassword === 'boolean'
    ) {
      return { outcome, linkToken, email, hasPassword };
    }
  }
  throw new Error('The server answered the sign-in in an unknown way');
};

// The configured providers, in the server's order; none while the configuration loads.
export const useSocialProviders = (): SocialProvider[] => {
  const config = usePublicConfig();
  return (config.data?.supportedSocialProviders ?? []).filter(isSocialProvider);
};

// Where the login page's button sends the browser (the API's start of the sign-in).
export const useSocialStartUrl = (): ((provider: SocialProvider) => string) => {
  const client = useClient();
  return (provider) => `${client.apiUrl}/auth/${provider}`;
};

const signInWith = async (client: FlotillaClient, answer: SocialExchangeAnswer) => {
  if (answer.outcome === 'signed-in' || answer.outcome === 'reauthenticated') {
    await client.auth.loginWithToken(answer.token);
  }
  return answer;
};

// The callback page hands the provider's answer (its query) to the server, which checks it
// against the sign-in this browser started.
export const useSocialExchange = (provider: SocialProvider) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async (query: string) =>
      signInWith(
        client,
        parseAnswer(
          await client.request<unknown>({
            method: 'POST',
            path: `/auth/${provider}/exchange`,
            body: { query },
          }),
        ),
      ),
    onSuccess: (answer) =>
      answer.outcome === 'linked'
        ? queryClient.invalidateQueries({ queryKey: socialAuthKeys.all })
        : undefined,
  });
};

export const useConfirmLink = (provider: SocialProvider) => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async (input: { linkToken: string; password: string }) =>
      signInWith(
        client,
        parseAnswer(
          await client.request<unknown>({
            method: 'POST',
            path: `/auth/${provider}/link-confirm`,
            body: input,
          }),
        ),
      ),
  });
};

const fetchSocialAccounts = (client: FlotillaClient, userId: number) =>
  client.pine.get({
    resource: 'social_service_account',
    options: {
      $select: ['id', 'provider', 'display_name'],
      $filter: { belongs_to__user: userId },
      $orderby: [{ id: 'asc' }],
    },
  });

export type SocialAccountRow = Awaited<ReturnType<typeof fetchSocialAccounts>>[number];

export const useSocialAccounts = (userId: number | undefined) => {
  const client = useClient();
  return useQuery({
    queryKey: socialAuthKeys.accounts(userId),
    queryFn: () => (userId === undefined ? [] : fetchSocialAccounts(client, userId)),
  });
};

// Unlinking; the list reloads whether it worked or not.
export const useUnlinkSocialAccount = (userId: number | undefined, onUnlinked: () => void) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (account: SocialAccountRow) =>
      client.pine.delete({ resource: 'social_service_account', id: account.id }),
    onSuccess: onUnlinked,
    onSettled: () => queryClient.invalidateQueries({ queryKey: socialAuthKeys.accounts(userId) }),
  });
};

// Linking from Preferences: the server answers the provider's address for this session's user
// (and sets the browser's flow cookie); the page then goes there.
export const useStartLink = () => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async (provider: SocialProvider) => {
      const body = await client.request<unknown>({
        method: 'POST',
        path: `/auth/${provider}/link`,
      });
      if (isRecord(body) && typeof body.url === 'string') return body.url;
      throw new Error('The server answered no address to link with');
    },
  });
};
