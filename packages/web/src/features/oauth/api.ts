import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type {
  OAuthApplication,
  OAuthApplicationCreated,
  OAuthAuthorizeAnswer,
} from '@flotilla/shared/auth/oauth';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { useSession } from '../../api/session/useSession.js';
import { useToasts } from '../../ui/toasts.js';
import { oauthKeys } from './query-keys.js';

// What the consent page shows, through /v7: the application's public fields and the caller's own
// authorization of it (the server serves a user their own authorizations only), if any.
// null: no application has this client id (a query's data may not be undefined).
const fetchConsentApplication = (client: FlotillaClient, clientId: string) =>
  client.pine.get({
    resource: 'oauth_application',
    id: { client_id: clientId },
    options: {
      $select: ['id', 'client_id', 'name', 'description', 'redirect_uri'],
      $expand: { oauth_application_authorization: { $select: ['id', 'created_at'] } },
    },
  });

export type ConsentApplication = NonNullable<Awaited<ReturnType<typeof fetchConsentApplication>>>;

const oauthApplicationQuery = (
  client: FlotillaClient,
  clientId: string,
  userId: number | undefined,
) => ({
  queryKey: oauthKeys.consentApplication(clientId, userId),
  queryFn: async () => (await fetchConsentApplication(client, clientId)) ?? null,
});

export type AuthorizationRequest = {
  clientId: string;
  redirectUri: string | null;
  state: string | null;
  // PKCE (RFC 7636), passed through from the client's link.
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
};

const authorizeApplication = (
  client: FlotillaClient,
  request: AuthorizationRequest,
): Promise<OAuthAuthorizeAnswer> =>
  client.request<OAuthAuthorizeAnswer>({
    method: 'POST',
    path: '/oauth/authorize',
    body: {
      client_id: request.clientId,
      response_type: 'code',
      ...(request.redirectUri !== null ? { redirect_uri: request.redirectUri } : {}),
      ...(request.state !== null ? { state: request.state } : {}),
      ...(request.codeChallenge !== null ? { code_challenge: request.codeChallenge } : {}),
      ...(request.codeChallengeMethod !== null
        ? { code_challenge_method: request.codeChallengeMethod }
        : {}),
    },
  });

const oauthApplicationsQuery = (client: FlotillaClient) => ({
  queryKey: oauthKeys.applications,
  queryFn: () => client.request<OAuthApplication[]>({ path: '/admin/v1/oauth-applications' }),
});

const registerApplication = (
  client: FlotillaClient,
  body: { name: string; description: string; redirect_uri: string; confidential: boolean },
): Promise<OAuthApplicationCreated> =>
  client.request<OAuthApplicationCreated>({
    method: 'POST',
    path: '/admin/v1/oauth-applications',
    body,
  });

const deleteApplication = (client: FlotillaClient, id: number): Promise<unknown> =>
  client.request<unknown>({ method: 'DELETE', path: `/admin/v1/oauth-applications/${id}` });

// What the consent page shows (the server's /oauth routes answer the rest).
export const useConsentApplication = (clientId: string) => {
  const client = useClient();
  const session = useSession();
  return useQuery(oauthApplicationQuery(client, clientId, session?.userId));
};

// Who is signed in, as the account menu reads it (one request for both).
export const useWhoami = () => {
  const client = useClient();
  const session = useSession();
  return useQuery({
    queryKey: oauthKeys.whoami(session?.userId),
    queryFn: () => client.auth.whoami(),
  });
};

// Allowing the application: the answer holds the code and where to send the user with it.
export const useAuthorizeApplication = (onAuthorized: (answer: OAuthAuthorizeAnswer) => void) => {
  const client = useClient();
  return useMutation({
    mutationFn: (request: AuthorizationRequest) => authorizeApplication(client, request),
    onSuccess: onAuthorized,
  });
};

export const useOAuthApplications = () => {
  const client = useClient();
  return useQuery(oauthApplicationsQuery(client));
};

// Registering an application; `onRegistered` runs before the list is read again.
export const useRegisterApplication = (
  onRegistered: (registered: OAuthApplicationCreated) => void,
) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: {
      name: string;
      description: string;
      redirect_uri: string;
      confidential: boolean;
    }) => registerApplication(client, body),
    onSuccess: (registered) => {
      onRegistered(registered);
      void queryClient.invalidateQueries({ queryKey: oauthKeys.applications });
    },
  });
};

export const useDeleteApplication = (
  application: { id: number; name: string },
  onDeleted: () => void,
) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  return useMutation({
    mutationFn: () => deleteApplication(client, application.id),
    onSuccess: () => {
      toasts.show('success', `${application.name} was deleted`);
      void queryClient.invalidateQueries({ queryKey: oauthKeys.applications });
      onDeleted();
    },
  });
};
