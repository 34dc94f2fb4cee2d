import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { useMutation } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { useSession } from '../../api/session/useSession.js';

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

// Asks for a new link for the signed-in user; the pending page shows the error itself.
export const useResendVerification = () => {
  const client = useClient();
  const userId = useSession()?.userId;
  return useMutation({
    meta: { inlineError: true },
    mutationFn: () =>
      userId === undefined ? Promise.resolve() : requestVerificationEmail(client, userId),
  });
};

// Verifies the mailed link and signs the user in; the page shows the error itself.
export const useVerifyEmail = (link: { verificationToken: string; email: string }) => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: () => verifyEmail(client, link),
  });
};
