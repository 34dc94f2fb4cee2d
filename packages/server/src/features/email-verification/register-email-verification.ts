import {
  emailTakenMessage,
  expiredVerificationLinkMessage,
  invalidVerificationLinkMessage,
} from '@flotilla/shared/auth/account-mail';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { badRequest, conflict } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import type { HookRegistry } from '../../infra/odata/hooks.js';
import type { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { isTwoFactorEnabled } from '../two-factor/two-factor-store.js';
import { queueVerificationMail, type VerificationMailDeps } from './verification-mail.js';
import { type VerificationState, verificationStateColumns } from './verification-token.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

// Verification mails one user may ask for per hour (balena-sdk's requestVerificationEmail): the
// address may be a pending one, someone else's, so its inbox is not to be flooded.
export const verificationMailsPerHour = 10;

const verifyBody = z.object({
  verificationToken: z
    .string({ error: 'verificationToken is required' })
    .max(200, invalidVerificationLinkMessage),
  email: z.string({ error: 'email is required' }).trim().max(254, invalidVerificationLinkMessage),
});

type AccountRow = { email: string | null; pending_email: string | null; is_verified: boolean };
type VerifiedAccount = VerificationState & { email: string | null };

const sameAddress = (a: string | null, b: string): boolean =>
  a !== null && a.toLowerCase() === b.toLowerCase();

// POST /user/v1/verify-email {verificationToken, email} (balena-sdk's auth.verifyEmail): the
// mailed link proves the address, once. The account's own address becomes verified; an address
// waiting to replace it (PATCH /user/email) replaces it, still unique. The answer is a session
// token of the user (pending its second factor when enabled), as balena-sdk expects; whoever
// holds the link did not give the password, so the session is not a fresh authentication
// (authTime 0: sensitive actions ask for the password first).

export const registerEmailVerification = (
  app: FastifyInstance,
  ctx: AppContext,
  deps: VerificationMailDeps,
): void => {
  app.post('/user/v1/verify-email', { config: { access: 'public' } }, async (request, reply) => {
    const body = parseBody(verifyBody, request.body);
    const userId = deps.signer.userOf(body.verificationToken);
    if (userId === undefined) throw badRequest(invalidVerificationLinkMessage);
    await recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
      const { rows } = await tx.query<VerifiedAccount>(
        `SELECT "email", ${verificationStateColumns} FROM "user" WHERE "id" = $1 FOR UPDATE`,
        [userId],
      );
      const account = rows[0];
      if (!account) throw badRequest(invalidVerificationLinkMessage);
      // Checked against the locked row: two uses of one link cannot both pass.
      const check = deps.signer.check(body.verificationToken, body.email, account, ctx.now());
      if (check === 'expired') throw badRequest(expiredVerificationLinkMessage);
      if (check === 'invalid') throw badRequest(invalidVerificationLinkMessage);
      if (sameAddress(account.email, body.email)) {
        await tx.query('UPDATE "user" SET "is_verified" = true WHERE "id" = $1', [userId]);
        return;
      }
      if (!sameAddress(account.pending_email, body.email)) {
        // The account has another address by now: the link proves nothing about it.
        throw badRequest(invalidVerificationLinkMessage);
      }
      const { rows: taken } = await tx.query(
        'SELECT 1 FROM "user" WHERE lower("email") = lower($1) AND "id" <> $2',
        [account.pending_email, userId],
      );
      if (taken.length > 0) throw conflict(emailTakenMessage);
      await tx.query(
        `UPDATE "user" SET "email" = "pending_email", "pending_email" = NULL, "is_verified" = true
          WHERE "id" = $1`,
        [userId],
      );
    });
    const token = await issueSessionToken(ctx, ctx.db, userId, {
      authTime: 0,
      ...((await isTwoFactorEnabled(ctx.db, userId)) ? { twoFactorRequired: true } : {}),
    });
    return reply.type('text/plain; charset=utf-8').send(token);
  });
};

// PATCH /v7/user(id) {has_been_sent_verification_email: true} (balena-sdk's
// requestVerificationEmail, wire contract section 5): mails a new verification link for the
// address waiting for one (a pending new address, else the unverified own address). The column
// records that a mail was sent; a verified account with no pending address has nothing to verify.
export const registerVerificationHooks = (
  hooks: HookRegistry,
  deps: VerificationMailDeps & { limiter: RateLimiter },
): void => {
  hooks.add('user', {
    async afterUpdate(write, ids, values) {
      if (values.has_been_sent_verification_email !== true) return;
      for (const id of ids) {
        const { rows } = await write.tx.query<AccountRow>(
          'SELECT "email", "pending_email", "is_verified" FROM "user" WHERE "id" = $1',
          [id],
        );
        const pending = rows[0]?.pending_email ?? null;
        const own = rows[0]?.is_verified === false ? rows[0].email : null;
        const address = pending ?? own;
        if (address === null) {
          throw badRequest('This e-mail address is already verified');
        }
        await deps.limiter.take([
          {
            key: `verification-mail:user:${id}`,
            limit: verificationMailsPerHour,
            windowMs: 3_600_000,
          },
        ]);
        await queueVerificationMail(write.tx, deps, {
          userId: id,
          email: address,
          now: write.now,
          change: pending !== null,
        });
      }
    },
  });
};
