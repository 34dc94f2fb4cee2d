import { z } from 'zod';

// Social sign-in (features/social-auth): each provider is on when its client id and secret are
// both set. The endpoints default to the real providers; a test (or an enterprise GitHub) points
// them elsewhere.
export type OAuthClientSettings = { clientId: string; clientSecret: string };

export type SocialAuthConfig = {
  // GitHub is plain OAuth 2.0: its authorize and token endpoints, then its API's /user and
  // /user/emails (config.githubApiUrl) say who signed in.
  github:
    (OAuthClientSettings & { authorizeUrl: string; tokenUrl: string; apiUrl: string }) | undefined;
  // Google is OpenID Connect: everything else comes from its issuer's discovery document.
  google: (OAuthClientSettings & { issuer: string }) | undefined;
};

const optionalText = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.string().trim().min(1).max(1000).optional(),
);

const httpUrl = (fallback: string) =>
  z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default(fallback)
    .transform((value) => value.replace(/\/+$/, ''));

// The environment variables, spread into the server's one configuration schema.
export const socialAuthEnv = {
  FLOTILLA_GITHUB_CLIENT_ID: optionalText,
  FLOTILLA_GITHUB_CLIENT_SECRET: optionalText,
  FLOTILLA_GITHUB_AUTHORIZE_URL: httpUrl('https://github.com/login/oauth/authorize'),
  FLOTILLA_GITHUB_TOKEN_URL: httpUrl('https://github.com/login/oauth/access_token'),
  FLOTILLA_GOOGLE_CLIENT_ID: optionalText,
  FLOTILLA_GOOGLE_CLIENT_SECRET: optionalText,
  FLOTILLA_GOOGLE_ISSUER: httpUrl('https://accounts.google.com'),
};

type SocialAuthValues = {
  FLOTILLA_GITHUB_CLIENT_ID?: string | undefined;
  FLOTILLA_GITHUB_CLIENT_SECRET?: string | undefined;
  FLOTILLA_GITHUB_AUTHORIZE_URL: string;
  FLOTILLA_GITHUB_TOKEN_URL: string;
  FLOTILLA_GOOGLE_CLIENT_ID?: string | undefined;
  FLOTILLA_GOOGLE_CLIENT_SECRET?: string | undefined;
  FLOTILLA_GOOGLE_ISSUER: string;
};

const clientOf = (
  name: string,
  clientId: string | undefined,
  clientSecret: string | undefined,
): OAuthClientSettings | undefined => {
  if (clientId === undefined && clientSecret === undefined) return undefined;
  if (clientId === undefined || clientSecret === undefined) {
    throw new Error(
      `Invalid configuration: set both FLOTILLA_${name}_CLIENT_ID and FLOTILLA_${name}_CLIENT_SECRET, or neither`,
    );
  }
  return { clientId, clientSecret };
};

export const socialAuthConfigOf = (
  values: SocialAuthValues,
  githubApiUrl: string,
): SocialAuthConfig => {
  const github = clientOf(
    'GITHUB',
    values.FLOTILLA_GITHUB_CLIENT_ID,
    values.FLOTILLA_GITHUB_CLIENT_SECRET,
  );
  const google = clientOf(
    'GOOGLE',
    values.FLOTILLA_GOOGLE_CLIENT_ID,
    values.FLOTILLA_GOOGLE_CLIENT_SECRET,
  );
  return {
    github: github && {
      ...github,
      authorizeUrl: values.FLOTILLA_GITHUB_AUTHORIZE_URL,
      tokenUrl: values.FLOTILLA_GITHUB_TOKEN_URL,
      apiUrl: githubApiUrl,
    },
    google: google && { ...google, issuer: values.FLOTILLA_GOOGLE_ISSUER },
  };
};
