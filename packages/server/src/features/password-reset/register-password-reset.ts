import { passwordProblem } from '@flotilla/shared/auth/credentials';
import { passwordResetErrors } from '@flotilla/shared/auth/account-mail';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { hashPassword } from '../../infra/auth/passwords.js';
import type { Queryable } from '../../infra/db/database.js';
import { ApiError, badRequest } from '../../infra/errors/api-error.js';
import { clientAddressKey } from '../../infra/http/client-address.js';
import { parseBody } from '../../infra/http/validate.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import type { CaptchaVerifier } from '../auth/captcha.js';
import { throttleAccountRequest } from '../auth/request-throttle.js';
import { rotateSessions } from '../two-factor/two-factor-store.js';
import { queuePasswordResetMail } from './password-reset-mail.js';
import { consumeResetCode, createResetCode } from './reset-codes.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const requestParams = z.object({
  email: z.string().trim().max(254, 'E-mail address is too long').email('Invalid e-mail address'),
});
const requestBody = z.object({ 'g-recaptcha-response': z.string().max(10_000).optional() });

const resetBody = z.object({
  loginCode: z
    .string({ error: 'loginCode is required' })
    .min(1, 'loginCode is required')
    .max(200, passwordResetErrors.invalid.message),
  password: z.string({ error: 'password is required' }).max(4096),
});

export type PasswordResetDeps = {
  captcha: CaptchaVerifier;
  // The console's address for the link (FLOTILLA_PUBLIC_URL or the listening address).
  publicUrl: () => string;
};

// Password reset, without a session:
// - POST /user/reset-password/:email {g-recaptcha-response}: mails a single-use link to the
//   account of that address. Always 204, whether or not the address is an account's, so the
//   answer tells nothing; throttled per client address and per e-mail address before the captcha.
// - POST /user/reset-password {loginCode, password}: sets the new password (the sign-up
//   password rules) and ends every session of the account; 204. The user then logs in (with their
//   second factor if they have one).
export const registerPasswordReset = (
  app: FastifyInstance,
  ctx: AppContext,
  deps: PasswordResetDeps,
): void => {
  const limiter = createRateLimiter(ctx.db, ctx.now);

  app.post(
    '/user/reset-password/:email',
    { config: { access: 'public' } },
    async (request, reply) => {
      const { email } = parseBody(requestParams, request.params);
      const body = parseBody(requestBody, request.body);
      await throttleAccountRequest(limiter, {
        kind: 'password-reset',
        clientAddress: clientAddressKey(request.ip),
        limitPerHour: ctx.config.passwordResetRateLimitPerHour,
        account: {
          key: email.toLowerCase(),
          limitPerHour: ctx.config.passwordResetAccountRateLimitPerHour,
        },
      });
      if (!(await deps.captcha.verify(body['g-recaptcha-response'], request.ip))) {
        throw badRequest('Invalid captcha response');
      }
      const sendCode = async (tx: Queryable): Promise<void> => {
        const { rows } = await tx.query<{ id: number; email: string }>(
          'SELECT "id", "email" FROM "user" WHERE lower("email") = lower($1)',
          [email],
        );
        const user = rows[0];
        if (!user) return;
        const { code, expiresAt } = await createResetCode(tx, user.id, ctx.now());
        await queuePasswordResetMail(tx, {
          to: user.email,
          code,
          expiresAt,
          publicUrl: deps.publicUrl(),
        });
      };
      await recordedTransaction(ctx.db, request, ctx.now, sendCode, { status: 204 });
      return reply.status(204).send();
    },
  );

  app.post('/user/reset-password', { config: { access: 'public' } }, async (request, reply) => {
    const body = parseBody(resetBody, request.body);
    const problem = passwordProblem(body.password);
    if (problem !== undefined) throw badRequest(problem);
    // Hashed before the transaction: the code's row lock is held for a moment only.
    const passwordHash = await hashPassword(body.password);
    const reset = async (tx: Queryable): Promise<void> => {
      const check = await consumeResetCode(tx, body.loginCode, ctx.now());
      if (check.status !== 'valid') {
        throw new ApiError('bad_request', passwordResetErrors[check.status].message);
      }
      await tx.query('UPDATE "user" SET "password_hash" = $2 WHERE "id" = $1', [
        check.userId,
        passwordHash,
      ]);
      await rotateSessions(tx, check.userId);
    };
    await recordedTransaction(ctx.db, request, ctx.now, reset, { status: 204 });
    return reply.status(204).send();
  });
};
