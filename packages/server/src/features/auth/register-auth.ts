import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { acceptingCaptchaVerifier, type CaptchaVerifier } from './captcha.js';
import { registerEmailVerification } from '../email-verification/register-email-verification.js';
import { createVerificationSigner } from '../email-verification/verification-token.js';
import { publicUrlOf } from '../mail/register-mail.js';
import { registerPasswordReset } from '../password-reset/register-password-reset.js';
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

const configuredCaptcha = (app: FastifyInstance, ctx: AppContext): CaptchaVerifier =>
  ctx.config.recaptcha
    ? createRecaptchaVerifier({
        ...ctx.config.recaptcha,
        log: (message) => app.log.error(message),
      })
    : acceptingCaptchaVerifier;

// Sessions and identity: /login_, /actor/v1/whoami, /user/v1/whoami, /user/v1/refresh-token and
// /user/register, e-mail verification and the password reset. The SDK's logout makes no request, so there is no logout route.
export const registerAuth = (
  app: FastifyInstance,
  ctx: AppContext,
  options: AuthOptions = {},
): void => {
  registerLogin(app, ctx);
  registerWhoami(app, ctx);
  registerRefreshToken(app, ctx);
  const captcha = options.captcha ?? configuredCaptcha(app, ctx);
  const publicUrl = () => publicUrlOf(app, ctx.config.publicUrl);
  const verification = { signer: createVerificationSigner(ctx.jwtSecret), publicUrl };
  registerSignUp(app, ctx, captcha, verification);
  registerEmailVerification(app, ctx, verification);
  registerPasswordReset(app, ctx, { captcha, publicUrl });
};
