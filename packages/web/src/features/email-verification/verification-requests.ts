import type { FlotillaClient } from '@flotilla/sdk/create-client';

// balena-sdk's requestVerificationEmail: the write asks the server for a new link.
export const requestVerificationEmail = (
  client: FlotillaClient,
  userId: number,
): Promise<unknown> =>
  client.request<unknown>({
    method: 'PATCH',
    path: `/v7/user(${userId})`,
    body: { has_been_sent_verification_email: true },
  });

// The mailed link's two parts; the seed records both orders ({token}/{email} and {email}/{token}):
// the address is the part with an @.
export const linkParts = (
  first: string,
  second: string,
): { verificationToken: string; email: string } =>
  first.includes('@') && !second.includes('@')
    ? { verificationToken: second, email: first }
    : { verificationToken: first, email: second };

// balena-sdk's verifyEmail: the answer is a session token of the verified user.
export const verifyEmail = async (
  client: FlotillaClient,
  link: { verificationToken: string; email: string },
): Promise<void> => {
  const token = await client.request<unknown>({
    method: 'POST',
    path: '/user/v1/verify-email',
    body: link,
    auth: false,
  });
  if (typeof token !== 'string') throw new Error('The server answered without a session token');
  await client.auth.loginWithToken(token);
};
