// OAuth authorize: applications registered by platform
// administrators, the consent page /login/oauth/:clientId and its calls.

export type OAuthApplication = {
  id: number;
  clientId: string;
  name: string;
  description: string | null;
  redirectUri: string;
  createdAt: string;
  // A confidential client: /oauth/token requires its secret (RFC 6749 section 2.3.1).
  confidential: boolean;
};

// The registration's answer: a confidential client's secret, shown this once (null otherwise).
export type OAuthApplicationCreated = OAuthApplication & { clientSecret: string | null };

// POST /oauth/authorize answers the code and where it may go (the registered redirect URI only).
export type OAuthAuthorizeAnswer = { code: string; redirect_uri: string; state?: string };

export const oauthCodeLifetimeSeconds = 600;
// An application's access token works this long after the code exchange, refreshes included:
// past it, the application sends the user through consent again.
export const oauthAccessTokenLifetimeSeconds = 24 * 60 * 60;
export const oauthNameMaxLength = 100;
export const oauthDescriptionMaxLength = 500;
export const oauthRedirectUriMaxLength = 2000;

// An absolute http(s) URI without a fragment (RFC 6749 section 3.1.2) and without credentials;
// null when acceptable, else the reason.
export const redirectUriProblem = (value: string): string | null => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'The redirect URI must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return 'The redirect URI must be an http or https URL';
  }
  if (url.hash !== '' || value.includes('#')) return 'The redirect URI must not have a fragment';
  if (url.username !== '' || url.password !== '') {
    return 'The redirect URI must not carry credentials';
  }
  return null;
};

// The address the browser goes to after consent (RFC 6749 section 4.1.2): the registered URI with
// `code` (or `error`) and `state` added to its query.
export const oauthRedirect = (
  redirectUri: string,
  outcome: { code: string } | { error: 'access_denied' },
  state: string | null,
): string => {
  const url = new URL(redirectUri);
  if ('code' in outcome) url.searchParams.set('code', outcome.code);
  else url.searchParams.set('error', outcome.error);
  if (state !== null) url.searchParams.set('state', state);
  return url.href;
};
