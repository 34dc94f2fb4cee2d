import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { acceptingCaptchaVerifier, type CaptchaVerifier } from './captcha.js';
import { verificationMailOf } from '../email-verification/verification-mail-of.js';
import { registerLogin } from './login.js';
import { createRecaptchaVerifier } from './recaptcha.js';
import { registerRefreshToken } from './refresh-token.js';
import { registerSignUp } from './register-user.js';
import { registerWhoami } from './whoami.js';

export type AuthOptions = {
  // Sign-up captcha check; by default reCAPTCHA when FLOTILLA_RECAPTCHA_* is set, else the
  // built-in verifier that accepts every response (self-hosting needs no third party).
  captcha?: CaptchaVerifier;
};

export const configuredCaptcha = (app: FastifyInstance, ctx: AppContext): CaptchaVerifier =>
  ctx.config.recaptcha
    ? createRecaptchaVerifier({
        ...ctx.config.recaptcha,
        log: (message) => app.log.error(message),
      })
    : acceptingCaptchaVerifier;

// Sessions and identity: /login_, /actor/v1/whoami, /user/v1/whoami, /user/v1/refresh-token and
// /user/register (e-mail verification and the password reset are features of their own). The
// SDK's logout makes no request, so there is no logout route.
export const registerAuth = (
  app: FastifyInstance,
  ctx: AppContext,
  options: AuthOptions = {},
): void => {
  registerLogin(app, ctx);
  registerWhoami(app, ctx);
  registerRefreshToken(app, ctx);
  const captcha = options.captcha ?? configuredCaptcha(app, ctx);
  registerSignUp(app, ctx, captcha, verificationMailOf(app, ctx));
};
