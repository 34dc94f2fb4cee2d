import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type {
  OAuthApplication,
  OAuthApplicationCreated,
  OAuthAuthorizeAnswer,
} from '@flotilla/shared/auth/oauth';

// features/oauth on the server.

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

export const oauthApplicationQuery = (
  client: FlotillaClient,
  clientId: string,
  userId: number | undefined,
) => ({
  queryKey: ['oauth-application', clientId, userId] as const,
  queryFn: async () => (await fetchConsentApplication(client, clientId)) ?? null,
});

export const authorizeApplication = (
  client: FlotillaClient,
  request: {
    clientId: string;
    redirectUri: string | null;
    state: string | null;
    // PKCE (RFC 7636), passed through from the client's link.
    codeChallenge: string | null;
    codeChallengeMethod: string | null;
  },
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

export const oauthApplicationsQuery = (client: FlotillaClient) => ({
  queryKey: ['oauth-applications'] as const,
  queryFn: () => client.request<OAuthApplication[]>({ path: '/admin/v1/oauth-applications' }),
});

export const registerApplication = (
  client: FlotillaClient,
  body: { name: string; description: string; redirect_uri: string; confidential: boolean },
): Promise<OAuthApplicationCreated> =>
  client.request<OAuthApplicationCreated>({
    method: 'POST',
    path: '/admin/v1/oauth-applications',
    body,
  });

export const deleteApplication = (client: FlotillaClient, id: number): Promise<unknown> =>
  client.request<unknown>({ method: 'DELETE', path: `/admin/v1/oauth-applications/${id}` });
