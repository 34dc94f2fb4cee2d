import type { FlotillaClient } from '@flotilla/sdk/create-client';

// Seed 000 section 7: the request carries the captcha answer and the address in the path; the
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
