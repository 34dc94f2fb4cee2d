import type { Registration } from '@flotilla/sdk/auth';
import { twoFactorApi } from '@flotilla/sdk/two-factor';
import { normalizeTwoFactorCode } from '@flotilla/shared/auth/two-factor';
import { useMutation } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { rememberProfileStep } from '../signup-profile/profile-step.js';
import { captchaResponse } from './captcha.js';
import { notePasswordAtLogin } from '../../api/session/password-limit.js';

// Logging in, its second factor and signing up. The screens show these errors
// themselves (inlineError).

export const useLogin = () => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (credentials: { email: string; password: string }) =>
      client.auth.login(credentials),
    // A password over today's limit still logs in, and asks for a change.
    onSuccess: (session, { password }) => notePasswordAtLogin(session.userId, password),
  });
};

export type TwoFactorMode = 'authenticator' | 'recovery';

// Passing replaces the session's token; the route's guard then moves on.
export const useTwoFactorLogin = (onError: () => void) => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: ({ mode, code }: { mode: TwoFactorMode; code: string }) =>
      mode === 'authenticator'
        ? twoFactorApi(client).verify(normalizeTwoFactorCode(code))
        : twoFactorApi(client).recover(normalizeTwoFactorCode(code)),
    onError,
  });
};

export type SignupForm = Omit<Registration, 'captchaResponse'> & {
  // The reCAPTCHA widget's answer, or undefined to ask the built-in captcha adapter.
  recaptchaAnswer: string | undefined;
  useRecaptcha: boolean;
  // Where the user was going, resumed after verification and the profile step.
  redirect: string | null;
};

export const useSignup = (onError: () => void) => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async ({
      recaptchaAnswer,
      useRecaptcha,
      redirect,
      ...registration
    }: SignupForm) => {
      const session = await client.auth.register({
        ...registration,
        captchaResponse: useRecaptcha ? recaptchaAnswer : await captchaResponse(),
      });
      // Verification (when required), then the profile, then where they were going.
      rememberProfileStep(session.userId, redirect);
    },
    // The server used up the answer: a new attempt needs a new one.
    onError,
  });
};
