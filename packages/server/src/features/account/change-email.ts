import { emailTakenMessage } from '@flotilla/shared/auth/account-mail';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { requireSessionMay } from '../../infra/auth/session-rules.js';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, conflict, unauthorized } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { createLoginThrottle } from '../auth/login-rate-limit.js';
import { queueEmailChangeNotice } from './email-change-notice.js';
import {
  queueVerificationMail,
  type VerificationMailDeps,
} from '../email-verification/verification-mail.js';
import { checkCurrentPassword } from '../auth/current-password.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const emailBody = z.object({
  email: z
    .string({ error: 'email is required' })
    .trim()
    .max(254, 'E-mail address is too long')
    .email('Invalid e-mail address'),
  password: z.string().max(4096).optional(),
});

// PATCH /user/email {email, password}: the password is checked (a
// login attempt, counted as one; an account without one sets it first), and the address must be
// no other account's, ignoring case (409). While verification is required the new address waits
// for its mailed link and the answer is an empty 204 ("pending verification"); otherwise it
// replaces the old one at once, unverified, gets its link all the same, and the answer is 200
// {email}. A change of letter case only is no new address: it is saved at once. The old address
// is told of any other change. Changes that mail are limited per account and hour (429).
export const registerEmailChange = (
  app: FastifyInstance,
  ctx: AppContext,
  verification: VerificationMailDeps,
): void => {
  const limiter = createRateLimiter(ctx.db, ctx.now);
  const throttle = createLoginThrottle(limiter, ctx.config);
  app.patch('/user/email', { config: { access: 'user' } }, async (request, reply) => {
    const actor = request.actor;
    if (actor.kind !== 'user') throw unauthorized();
    requireSessionMay(actor, 'change-email');
    const { userId } = actor;
    const body = parseBody(emailBody, request.body);
    const { rows } = await ctx.db.query<{ email: string | null; password_hash: string | null }>(
      'SELECT "email", "password_hash" FROM "user" WHERE "id" = $1',
      [userId],
    );
    const account = rows[0];
    if (!account) throw unauthorized();
    if (account.password_hash === null) {
      throw badRequest('Set a password first: changing the e-mail address asks for it');
    }
    if (body.password === undefined || body.password === '') {
      throw badRequest('password is required');
    }
    await checkCurrentPassword(throttle, {
      userId,
      ip: request.ip,
      password: body.password,
      hash: account.password_hash,
    });
    const caseOnly = account.email?.toLowerCase() === body.email.toLowerCase();
    // Every other change mails the address typed: FLOTILLA_EMAIL_CHANGE_RATE_LIMIT an hour per
    // account, so that an account cannot mail any address it likes.
    if (!caseOnly) {
      await limiter.take([
        {
          key: `email-change:user:${userId}`,
          limit: ctx.config.emailChangeRateLimitPerHour,
          windowMs: 3_600_000,
        },
      ]);
    }
    const pending = ctx.config.requireEmailVerification && !caseOnly;
    const write = async (tx: Queryable): Promise<void> => {
      const { rows: taken } = await tx.query(
        'SELECT 1 FROM "user" WHERE lower("email") = lower($1) AND "id" <> $2',
        [body.email, userId],
      );
      if (taken.length > 0) throw conflict(emailTakenMessage);
      if (caseOnly) {
        await tx.query('UPDATE "user" SET "email" = $2, "pending_email" = NULL WHERE "id" = $1', [
          userId,
          body.email,
        ]);
        return;
      }
      await tx.query(
        pending
          ? 'UPDATE "user" SET "pending_email" = $2 WHERE "id" = $1'
          : `UPDATE "user" SET "email" = $2, "is_verified" = false, "pending_email" = NULL
              WHERE "id" = $1`,
        [userId, body.email],
      );
      await queueVerificationMail(tx, verification, {
        userId,
        email: body.email,
        now: ctx.now(),
        change: pending,
      });
      if (account.email !== null) {
        await queueEmailChangeNotice(tx, verification.publicUrl(), {
          from: account.email,
          to: body.email,
          pending,
        });
      }
    };
    await recordedTransaction(ctx.db, request, ctx.now, write, { status: pending ? 204 : 200 });
    if (pending) return reply.status(204).send();
    return { email: body.email };
  });
};
