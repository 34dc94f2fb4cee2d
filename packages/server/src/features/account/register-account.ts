import { passwordProblem } from '@flotilla/shared/auth/credentials';
import { accountTypes, profileProblems } from '@flotilla/shared/users/profile';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { hashPassword } from '../../infra/auth/passwords.js';
import { requireSessionMay } from '../../infra/auth/session-rules.js';
import { badRequest, unauthorized } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { currentSession } from '../auth/current-session.js';
import { carriedClaims, issueSessionToken } from '../auth/issue-session-token.js';
import { createLoginThrottle } from '../auth/login-rate-limit.js';
import { rotateSessions } from '../two-factor/two-factor-store.js';
import { checkCurrentPassword, passwordHashOf } from '../auth/current-password.js';
import { requireFreshAuthentication } from '../auth/fresh-authentication.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const passwordBody = z.object({
  currentPassword: z.string().max(4096).optional(),
  password: z.string({ error: 'password is required' }).max(4096),
});

const profileBody = z.object({
  first_name: z.string({ error: 'first_name is required' }),
  last_name: z.string({ error: 'last_name is required' }),
  company: z.string({ error: 'company is required' }),
  account_type: z
    .enum(accountTypes, { error: 'account_type must be personal, professional or null' })
    .nullable(),
  has_disabled_newsletter: z.boolean().optional(),
});

type ProfileRow = {
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  account_type: string | null;
  has_disabled_newsletter: boolean;
};

// The signed-in user's own account: the password and the profile.
export const registerAccount = (app: FastifyInstance, ctx: AppContext): void => {
  const throttle = createLoginThrottle(createRateLimiter(ctx.db, ctx.now), ctx.config);

  // PATCH /user/password {currentPassword, password}: the current password is checked (a login
  // attempt, counted as one), or, when the account has none yet, a fresh authentication through
  // its sign-in provider; every other session ends, and the
  // answer is the calling session's new token.
  app.patch('/user/password', { config: { access: 'user' } }, async (request, reply) => {
    const { userId, claims } = await currentSession(request, ctx);
    requireSessionMay(request.actor, 'change-password');
    const body = parseBody(passwordBody, request.body);
    const problem = passwordProblem(body.password);
    if (problem !== undefined) throw badRequest(problem);
    const currentHash = await passwordHashOf(ctx.db, userId);
    if (currentHash !== null) {
      if (body.currentPassword === undefined || body.currentPassword === '') {
        throw badRequest('currentPassword is required');
      }
      await checkCurrentPassword(throttle, {
        userId,
        ip: request.ip,
        password: body.currentPassword,
        hash: currentHash,
      });
    } else {
      // An account that signs in only through GitHub, Google or SAML: the person proves it is
      // them through that provider again before a password can be added to the account.
      await requireFreshAuthentication(request, ctx);
    }
    const newHash = await hashPassword(body.password);
    await recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
      await tx.query('UPDATE "user" SET "password_hash" = $2 WHERE "id" = $1', [userId, newHash]);
      await rotateSessions(tx, userId);
    });
    const token = await issueSessionToken(ctx, ctx.db, userId, {
      authTime: ctx.now().getTime(),
      ...carriedClaims(claims),
      ...(claims.twoFactorRequired !== undefined
        ? { twoFactorRequired: claims.twoFactorRequired }
        : {}),
    });
    return reply.type('text/plain; charset=utf-8').send(token);
  });

  // POST /logout-others: every other session of the account ends (a new
  // jwt_secret); the answer is the calling session's new token, with the same claims.
  app.post('/logout-others', { config: { access: 'user' } }, async (request, reply) => {
    requireSessionMay(request.actor, 'end-other-sessions');
    const { userId, claims } = await currentSession(request, ctx);
    await recordedTransaction(ctx.db, request, ctx.now, (tx) => rotateSessions(tx, userId));
    const token = await issueSessionToken(ctx, ctx.db, userId, {
      authTime: claims.authTime,
      ...carriedClaims(claims),
      ...(claims.twoFactorRequired !== undefined
        ? { twoFactorRequired: claims.twoFactorRequired }
        : {}),
    });
    return reply.type('text/plain; charset=utf-8').send(token);
  });

  // PATCH /user/profile: first name, last name, company and account type are required;
  // the newsletter choice is optional. Answers the stored profile.
  app.patch('/user/profile', { config: { access: 'user' } }, async (request) => {
    const actor = request.actor;
    if (actor.kind !== 'user') throw unauthorized();
    const body = parseBody(profileBody, request.body);
    const problems = Object.values(profileProblems(body));
    if (problems.length > 0) throw badRequest(problems.join('; '));
    return recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
      const { rows } = await tx.query<ProfileRow>(
        `UPDATE "user" SET "first_name" = $2, "last_name" = $3, "company" = $4,
              "account_type" = $5,
              "has_disabled_newsletter" = coalesce($6, "has_disabled_newsletter")
        WHERE "id" = $1
        RETURNING "first_name", "last_name", "company", "account_type", "has_disabled_newsletter"`,
        [
          actor.userId,
          body.first_name.trim(),
          body.last_name.trim(),
          body.company.trim(),
          body.account_type,
          body.has_disabled_newsletter ?? null,
        ],
      );
      const row = rows[0];
      if (!row) throw unauthorized();
      return row;
    });
  });
};
