import { samlPasswordLoginRefusal } from '@flotilla/shared/auth/saml-accounts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { verifyAgainstDummy, verifyPassword } from '../../infra/auth/passwords.js';
import type { Queryable } from '../../infra/db/database.js';
import { ApiError } from '../../infra/errors/api-error.js';
import { clientAddressKey } from '../../infra/http/client-address.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { isTwoFactorEnabled } from '../two-factor/two-factor-store.js';
import { recordRequestEvent } from '../audit-log/audit-events.js';
import { issueSessionToken } from './issue-session-token.js';
import { createLoginThrottle, loginAccountKey } from './login-rate-limit.js';

export const invalidCredentialsMessage = 'Invalid login credentials';

// Generous bounds: they only keep absurd inputs away from scrypt. Over-long passwords may still
// be legitimate old passwords (the console then prompts a change), so they are not refused early.
const loginBody = z.object({
  username: z.string().min(1).max(320),
  password: z.string().min(1).max(4096),
});

const isClientError = (error: unknown): boolean =>
  !(error instanceof ApiError) &&
  typeof error === 'object' &&
  error !== null &&
  'statusCode' in error &&
  typeof error.statusCode === 'number' &&
  error.statusCode >= 400 &&
  error.statusCode < 500;

type UserRow = { id: number; password_hash: string | null };

// The one account a login name means: the user with that e-mail, else the user with that
// username. Both are unique ignoring case (user_email_key, user_username_lower_key) and a username
// cannot contain "@", so at most one row matches each way (the e-mail match wins).
export const findAccount = async (db: Queryable, name: string): Promise<UserRow | undefined> => {
  const { rows } = await db.query<UserRow>(
    `SELECT "id", "password_hash" FROM (
       SELECT "id", "password_hash", 0 AS "rank" FROM "user" WHERE lower("email") = lower($1)
       UNION ALL
       SELECT "id", "password_hash", 1 FROM "user" WHERE lower("username") = lower($1)
     ) AS "matches"
     ORDER BY "rank", "id" LIMIT 1`,
    [name.trim()],
  );
  return rows[0];
};

// POST /login_ {username, password}: the username may be the e-mail or the username. Every
// failure, including a malformed body, is 401 "Invalid login credentials" (the SDK maps 401 to
// BalenaInvalidLoginCredentials); the token is a text/plain body.
export const registerLogin = (app: FastifyInstance, ctx: AppContext): void => {
  const throttle = createLoginThrottle(createRateLimiter(ctx.db, ctx.now), ctx.config);

  const routeOptions = {
    config: { access: 'public' as const },
    // Bodies Fastify itself rejects (wrong content type, broken JSON) are failures too: 401.
    // Rethrown errors reach the application's error handler; server faults stay 500s.
    errorHandler: (error: unknown) => {
      throw isClientError(error) ? new ApiError('unauthorized', invalidCredentialsMessage) : error;
    },
  };

  app.post('/login_', routeOptions, async (request, reply) => {
    const parsed = loginBody.safeParse(request.body);
    if (!parsed.success) throw new ApiError('unauthorized', invalidCredentialsMessage);
    const { username, password } = parsed.data;
    const user = await findAccount(ctx.db, username);
    const attempt = await throttle.begin(
      loginAccountKey(user?.id, username),
      clientAddressKey(request.ip),
    );
    // Unknown users and users without a password spend the same time as a wrong password.
    const valid = user?.password_hash
      ? await verifyPassword(password, user.password_hash)
      : await verifyAgainstDummy(password);
    if (!user || !valid) {
      // The typed name is not logged: people type passwords into it by mistake.
      request.log.info({ userId: user?.id ?? null, ip: request.ip }, 'login failed');
      await recordRequestEvent(
        ctx.db,
        request,
        { action: 'login_failed', resource: 'user', resourceId: user?.id ?? null },
        ctx.now(),
      );
      throw new ApiError('unauthorized', invalidCredentialsMessage);
    }
    await attempt.succeeded();
    // Told only to whoever knows the password: it reveals nothing to a guesser.
    const { rows: saml } = await ctx.db.query(
      'SELECT 1 FROM "saml_account" WHERE "belongs_to__user" = $1 LIMIT 1',
      [user.id],
    );
    if (saml.length > 0) throw new ApiError('unauthorized', samlPasswordLoginRefusal);
    request.log.info({ userId: user.id, ip: request.ip }, 'login');
    const actor = { kind: 'user-id', userId: user.id, via: 'session' } as const;
    await recordRequestEvent(
      ctx.db,
      request,
      { action: 'login', resource: 'user', resourceId: user.id, actor },
      ctx.now(),
    );
    // With two-factor enabled the session stays pending until a code is verified.
    const token = await issueSessionToken(ctx, ctx.db, user.id, {
      ...((await isTwoFactorEnabled(ctx.db, user.id)) ? { twoFactorRequired: true } : {}),
    });
    return reply.type('text/plain; charset=utf-8').send(token);
  });
};
