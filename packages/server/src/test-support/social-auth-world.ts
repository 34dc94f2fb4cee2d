import { expect } from 'vitest';
import { decodeJwt } from 'jose';
import type {
  SocialExchangeAnswer,
  SocialProvider,
} from '@flotilla/shared/social-auth/social-providers';
import { type GithubApiFake, startGithubApiFake } from './github-api-fake.js';
import { type OidcTestProvider, startOidcTestProvider } from './oidc-test-provider.js';
import type { Config } from '../infra/config/config.js';
import { startTestServer, type TestServer, type TestServerOverrides } from './test-server.js';

// The server with GitHub and Google sign-in configured against a local oidc-provider (and the
// strict GitHub API fake), and a browser's steps through a sign-in: start at the server, follow
// the provider's redirects back to the console's callback page, hand the answer over.
export type SocialWorld = {
  server: TestServer;
  google: OidcTestProvider;
  githubOAuth: OidcTestProvider;
  githubApi: GithubApiFake;
  close(): Promise<void>;
};

export const consoleUrl = 'http://console.test';
const callbackOf = (provider: SocialProvider) => `${consoleUrl}/auth/${provider}/callback`;

export const startSocialWorld = async (
  config: Partial<Config> = {},
  overrides: Omit<TestServerOverrides, 'config'> = {},
): Promise<SocialWorld> => {
  const google = await startOidcTestProvider([
    { clientId: 'google-client', clientSecret: 'google-secret', redirectUri: callbackOf('google') },
  ]);
  const githubOAuth = await startOidcTestProvider([
    { clientId: 'github-client', clientSecret: 'github-secret', redirectUri: callbackOf('github') },
  ]);
  const githubApi = await startGithubApiFake(githubOAuth.provider);
  const server = await startTestServer({
    ...overrides,
    config: {
      publicUrl: consoleUrl,
      socialAuth: {
        github: {
          clientId: 'github-client',
          clientSecret: 'github-secret',
          authorizeUrl: `${githubOAuth.issuer}/auth`,
          tokenUrl: `${githubOAuth.issuer}/token`,
          apiUrl: githubApi.url,
        },
        google: { clientId: 'google-client', clientSecret: 'google-secret', issuer: google.issuer },
      },
      ...config,
    },
  });
  return {
    server,
    google,
    githubOAuth,
    githubApi,
    async close() {
      await server.close();
      await githubApi.close();
      await google.close();
      await githubOAuth.close();
    },
  };
};

const cookiePairOf = (setCookie: string): [string, string] => {
  const [pair = ''] = setCookie.split(';');
  const [name = '', ...value] = pair.split('=');
  return [name.trim(), value.join('=')];
};

// The flow cookie a response set (name=value), as the browser would send it back.
export const flowCookieOf = (response: Response): string => {
  const cookie = response.headers
    .getSetCookie()
    .find((line) => line.startsWith('flotilla_social_flow='));
  expect(cookie).toBeDefined();
  return (cookie ?? '').split(';')[0] ?? '';
};

// Follows the provider's redirects (with the provider's own cookies) until it sends the browser
// back to the console's callback page; answers that page's query string.
export const throughProvider = async (provider: SocialProvider, url: string): Promise<string> => {
  const jar = new Map<string, string>();
  let next = url;
  for (let hop = 0; hop < 12; hop += 1) {
    if (next.startsWith(callbackOf(provider))) return new URL(next).search.slice(1);
    const response = await fetch(next, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [name, value] = cookiePairOf(line);
      if (value === '') jar.delete(name);
      else jar.set(name, value);
    }
    const location = response.headers.get('location');
    if (location === null) {
      throw new Error(`The provider stopped at ${response.status}: ${await response.text()}`);
    }
    next = new URL(location, next).href;
  }
  throw new Error('The provider never sent the browser back');
};

export const startAt = async (
  world: SocialWorld,
  provider: SocialProvider,
): Promise<{ cookie: string; providerUrl: string }> => {
  const response = await fetch(`${world.server.url}/auth/${provider}`, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return { cookie: flowCookieOf(response), providerUrl: response.headers.get('location') ?? '' };
};

export const exchange = (
  world: SocialWorld,
  provider: SocialProvider,
  cookie: string | undefined,
  query: string,
): Promise<Response> =>
  fetch(`${world.server.url}/auth/${provider}/exchange`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ query }),
  });

// A whole sign-in as the provider's account `accountId`: the exchange's answer.
export const signInThrough = async (
  world: SocialWorld,
  provider: SocialProvider,
  accountId: string,
): Promise<Response> => {
  (provider === 'google' ? world.google : world.githubOAuth).signInAs(accountId);
  const { cookie, providerUrl } = await startAt(world, provider);
  const query = await throughProvider(provider, providerUrl);
  return exchange(world, provider, cookie, query);
};

export const answerOf = async (response: Response): Promise<SocialExchangeAnswer> => {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const answer: SocialExchangeAnswer = JSON.parse(text);
  return answer;
};

export const userIdOf = (token: string): number => {
  const { id } = decodeJwt(token);
  if (typeof id !== 'number') throw new Error('A session token without a user id');
  return id;
};
