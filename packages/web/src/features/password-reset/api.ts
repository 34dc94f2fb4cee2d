import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { useMutation } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { captchaResponse } from '../auth/captcha.js';

// The request carries the captcha answer and the address in the path; the
// server answers 204 whether or not the address is an account's.
export const requestPasswordReset = (
  client: FlotillaClient,
  email: string,
  captchaAnswer: string | undefined,
): Promise<unknown> =>
  client.request<unknown>({
    method: 'POST',
    path: `/user/reset-password/${encodeURIComponent(email)}`,
    body: captchaAnswer === undefined ? {} : { 'g-recaptcha-response': captchaAnswer },
    auth: false,
  });

// Sets the new password with the mailed code; every session of the account ends.
export const resetPassword = (
  client: FlotillaClient,
  loginCode: string,
  password: string,
): Promise<unknown> =>
  client.request<unknown>({
    method: 'POST',
    path: '/user/reset-password',
    body: { loginCode, password },
    auth: false,
  });

// Asks for a reset link: with the reCAPTCHA widget's answer when the server has a site key, else
// the built-in captcha adapter's. The page shows the error itself.
export const useRequestPasswordReset = ({
  onSuccess,
  onError,
}: {
  onSuccess: () => void;
  onError: () => void;
}) => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async (form: {
      email: string;
      useRecaptcha: boolean;
      recaptchaAnswer: string | undefined;
    }) =>
      requestPasswordReset(
        client,
        form.email,
        form.useRecaptcha ? form.recaptchaAnswer : await captchaResponse(),
      ),
    onSuccess,
    onError,
  });
};

// The server ends every session of the account: a session of this tab is gone too.
export const useResetPassword = (loginCode: string) => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (password: string) => resetPassword(client, loginCode, password),
    onSuccess: () => client.auth.logout(),
  });
};
