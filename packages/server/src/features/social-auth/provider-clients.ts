import * as oidc from 'openid-client';
import {
  type SocialProvider,
  socialAuthMessages,
  socialProviderLabels,
} from '@flotilla/shared/social-auth/social-providers';
import type { SocialAuthConfig } from '../../infra/config/social-auth.js';
import { ApiError, badRequest } from '../../infra/errors/api-error.js';
import { fetchGithubIdentity } from './github-identity.js';

// Who the provider says signed in. The e-mail counts only when the provider vouches for it.
export type ProviderIdentity = {
  remoteId: string;
  displayName: string;
  email: string | undefined;
  emailVerified: boolean;
};

// What the start of a sign-in hands to the browser (the URL) and keeps for the answer (the rest).
export type StartedFlow = { url: string; state: string; verifier: string; nonce?: string };

export type ProviderClient = {
  start(redirectUri: string): Promise<StartedFlow>;
  finish(
    redirectUri: string,
    query: URLSearchParams,
    flow: { state: string; verifier: string; nonce?: string },
  ): Promise<ProviderIdentity>;
};

const scopes: Record<SocialProvider, string> = {
  github: 'read:user user:email',
  google: 'openid email profile',
};

// openid-client refuses plain http; an operator (or a test) pointing a provider at an http URL
// has chosen to.
const allowHttp = (url: string, config: oidc.Configuration): oidc.Configuration => {
  if (url.startsWith('http:')) oidc.allowInsecureRequests(config);
  return config;
};

const unavailable = (provider: SocialProvider, cause: unknown): ApiError => {
  const error = new ApiError(
    'service_unavailable',
    socialAuthMessages.providerUnavailable(socialProviderLabels[provider]),
  );
  error.cause = cause;
  return error;
};

// Errors of the exchange: the provider's own refusal (the user cancelled, a code used twice) is
// the user's to see; a broken answer or an unreachable provider is ours to log.
const exchangeError = (provider: SocialProvider, error: unknown): ApiError => {
  const label = socialProviderLabels[provider];
  if (error instanceof ApiError) return error;
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError) {
    return badRequest(
      socialAuthMessages.providerRefused(label, error.error_description ?? error.error),
    );
  }
  return unavailable(provider, error);
};

const startWith = async (
  config: oidc.Configuration,
  provider: SocialProvider,
  redirectUri: string,
  withNonce: boolean,
): Promise<StartedFlow> => {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = withNonce ? oidc.randomNonce() : undefined;
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: scopes[provider],
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...(nonce === undefined ? {} : { nonce }),
  });
  return { url: url.href, state, verifier, ...(nonce === undefined ? {} : { nonce }) };
};

const callbackUrl = (redirectUri: string, query: URLSearchParams): URL => {
  const url = new URL(redirectUri);
  url.search = query.toString();
  return url;
};

const githubClient = (settings: NonNullable<SocialAuthConfig['github']>): ProviderClient => {
  const config = allowHttp(
    settings.tokenUrl,
    new oidc.Configuration(
      {
        issuer: new URL(settings.authorizeUrl).origin,
        authorization_endpoint: settings.authorizeUrl,
        token_endpoint: settings.tokenUrl,
      },
      settings.clientId,
      settings.clientSecret,
    ),
  );
  return {
    start: (redirectUri) => startWith(config, 'github', redirectUri, false),
    async finish(redirectUri, query, flow) {
      try {
        const tokens = await oidc.authorizationCodeGrant(
          config,
          callbackUrl(redirectUri, query),
          { pkceCodeVerifier: flow.verifier, expectedState: flow.state },
          { redirect_uri: redirectUri },
        );
        return await fetchGithubIdentity(settings.apiUrl, tokens.access_token);
      } catch (error) {
        throw exchangeError('github', error);
      }
    },
  };
};

const googleClient = (settings: NonNullable<SocialAuthConfig['google']>): ProviderClient => {
  // Discovered on first use and kept; a failed discovery is tried again next time.
  let discovered: Promise<oidc.Configuration> | undefined;
  const configuration = (): Promise<oidc.Configuration> => {
    discovered ??= oidc
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        settings.clientSecret,
        undefined,
        settings.issuer.startsWith('http:') ? { execute: [oidc.allowInsecureRequests] } : {},
      )
      .catch((error: unknown) => {
        discovered = undefined;
        throw unavailable('google', error);
      });
    return discovered;
  };
  return {
    start: async (redirectUri) => startWith(await configuration(), 'google', redirectUri, true),
    async finish(redirectUri, query, flow) {
      const config = await configuration();
      try {
        const tokens = await oidc.authorizationCodeGrant(
          config,
          callbackUrl(redirectUri, query),
          {
            pkceCodeVerifier: flow.verifier,
            expectedState: flow.state,
            ...(flow.nonce === undefined ? {} : { expectedNonce: flow.nonce }),
            idTokenExpected: true,
          },
          { redirect_uri: redirectUri },
        );
        const claims = tokens.claims();
        if (!claims) throw unavailable('google', new Error('No ID token'));
        const email = typeof claims.email === 'string' ? claims.email : undefined;
        return {
          remoteId: claims.sub,
          displayName: email ?? (typeof claims.name === 'string' ? claims.name : claims.sub),
          email,
          // Google has served the claim as the string "true" for some accounts.
          emailVerified: claims.email_verified === true || claims.email_verified === 'true',
        };
      } catch (error) {
        throw exchangeError('google', error);
      }
    },
  };
};

export type ProviderClients = Partial<Record<SocialProvider, ProviderClient>>;

// A client for each configured provider.
export const createProviderClients = (config: SocialAuthConfig): ProviderClients => ({
  ...(config.github ? { github: githubClient(config.github) } : {}),
  ...(config.google ? { google: googleClient(config.google) } : {}),
});
