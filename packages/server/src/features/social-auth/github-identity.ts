import { z } from 'zod';
import type { ProviderIdentity } from './provider-clients.js';

const githubUser = z.object({ id: z.number().int(), login: z.string().min(1) });
const githubEmails = z.array(
  z.object({ email: z.string().min(3), primary: z.boolean(), verified: z.boolean() }),
);

const timeoutMs = 10_000;

const getJson = async (url: string, accessToken: string): Promise<unknown> => {
  const response = await fetch(url, {
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${accessToken}`,
      'x-github-api-version': '2022-11-28',
      'user-agent': 'Flotilla',
    },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`GitHub answered ${response.status} to ${url}`);
  return response.json();
};

// GitHub is plain OAuth 2.0: who signed in comes from its API. The account's primary address
// counts only when GitHub has verified it.
export const fetchGithubIdentity = async (
  apiUrl: string,
  accessToken: string,
): Promise<ProviderIdentity> => {
  const user = githubUser.parse(await getJson(`${apiUrl}/user`, accessToken));
  const emails = githubEmails.parse(await getJson(`${apiUrl}/user/emails`, accessToken));
  const primary = emails.find((entry) => entry.primary);
  return {
    remoteId: String(user.id),
    displayName: user.login,
    email: primary?.email,
    emailVerified: primary?.verified === true,
  };
};
