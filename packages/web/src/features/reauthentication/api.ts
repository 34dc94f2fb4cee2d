import type { FlotillaClient } from '@flotilla/sdk/create-client';
import {
  isSocialProvider,
  type SocialProvider,
} from '@flotilla/shared/social-auth/social-providers';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { queryRoots } from '../../api/query-roots.js';
import { useProfile } from '../../api/session/profile-query.js';
import { keepReauthReturnPath } from '../../api/session/reauth-return-path.js';
import { useSession } from '../../api/session/useSession.js';
import { leaveConsole } from '../../ui/leave-console.js';

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

// The ways the account can confirm itself besides its password: the GitHub or Google accounts
// linked to it, and the identity provider its SAML account came from.
export type LinkedWays = { social: SocialProvider[]; saml: boolean };

const fetchLinkedWays = async (client: FlotillaClient, userId: number): Promise<LinkedWays> => {
  const [social, saml] = await Promise.all([
    client.pine.get({
      resource: 'social_service_account',
      options: { $select: ['provider'], $filter: { belongs_to__user: userId } },
    }),
    client.pine.get({
      resource: 'saml_account',
      options: { $select: ['id'], $filter: { belongs_to__user: userId }, $top: 1 },
    }),
  ]);
  return {
    social: social.map((row) => row.provider).filter(isSocialProvider),
    saml: saml.length > 0,
  };
};

// The password form shows unless the profile says there is no password (also while it loads);
// the provider buttons once the linked accounts are known.
export const useReauthMethods = (enabled: boolean) => {
  const client = useClient();
  const userId = useSession()?.userId;
  const profile = useProfile();
  const linked = useQuery({
    queryKey: [...queryRoots.session, 'reauth-methods', userId] as const,
    queryFn: () =>
      userId === undefined ? { social: [], saml: false } : fetchLinkedWays(client, userId),
    enabled,
  });
  return {
    hasPassword: profile.data?.has_password_set !== false,
    profileLoaded: profile.data !== undefined,
    linked,
  };
};

export type ReauthVia = { kind: 'social'; provider: SocialProvider } | { kind: 'saml' };

// "Continue with …": the server answers the provider's address for this session (and sets the
// browser's flow cookie for a social one); the page goes there and comes back to where it was.
export const useStartProviderReauth = () => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async ({ via }: { via: ReauthVia; returnPath: string }) => {
      const body = await client.request<unknown>({
        method: 'POST',
        path: via.kind === 'saml' ? '/auth/saml/reauth' : `/auth/${via.provider}/reauth`,
      });
      if (typeof body !== 'object' || body === null || !('url' in body)) {
        throw new Error('The server answered no address to continue with');
      }
      const { url } = body;
      if (typeof url !== 'string')
        throw new Error('The server answered no address to continue with');
      return url;
    },
    onSuccess: (url, { returnPath }) => {
      keepReauthReturnPath(returnPath);
      leaveConsole(url);
    },
  });
};

// The SAML way back: the code the assertion consumer handed over becomes this session's fresh
// token.
export const useSamlReauthenticate = () => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async (code: string) => {
      const token = await client.request<unknown>({
        method: 'POST',
        path: '/auth/saml/reauthenticate',
        body: { code },
      });
      if (typeof token !== 'string') throw new Error('The server answered without a session token');
      await client.auth.loginWithToken(token);
    },
  });
};
