import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { parseBody } from '../../infra/http/validate.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { requireSessionMay } from '../../infra/auth/session-rules.js';
import { currentSession } from './current-session.js';
import { carriedClaims, issueSessionToken } from './issue-session-token.js';
import { createLoginThrottle } from './login-rate-limit.js';
import { checkCurrentPassword, passwordHashOf } from './current-password.js';

const refreshBody = z.object({ password: z.string().min(1).max(4096).optional() });

// GET/POST /user/v1/refresh-token: a new session token (new iat/exp) for the calling session.
// The claims carry over (authTime, actualUser, twoFactorRequired, an OAuth token's authorization
// and its end, which a refresh never moves) unless the password is given again, which renews
// authTime (the console's re-authentication window; it makes no other kind of session fresh).
export const registerRefreshToken = (app: FastifyInstance, ctx: AppContext): void => {
  // A password given here is a login attempt too: counted in the same buckets as /login_, so a
  // stolen session cannot be used to guess the password past the login limits.
  const throttle = createLoginThrottle(createRateLimiter(ctx.db, ctx.now), ctx.config);
  const refresh = async (request: FastifyRequest, password: string | undefined) => {
    // Only sessions refresh: an API key never expires and is never refreshed.
    const { userId, claims } = await currentSession(request, ctx);
    requireSessionMay(request.actor, 'refresh');
    let authTime = claims.authTime;
    if (password !== undefined) {
      await checkCurrentPassword(throttle, {
        userId,
        ip: request.ip,
        password,
        hash: await passwordHashOf(ctx.db, userId),
      });
      authTime = ctx.now().getTime();
    }
    return issueSessionToken(ctx, ctx.db, userId, {
      authTime,
      ...carriedClaims(claims),
      ...(claims.twoFactorRequired !== undefined
        ? { twoFactorRequired: claims.twoFactorRequired }
        : {}),
    });
  };

  app.get(
    '/user/v1/refresh-token',
    { config: { access: 'user-pending-2fa' } },
    async (request, reply) =>
      reply.type('text/plain; charset=utf-8').send(await refresh(request, undefined)),
  );
  app.post(
    '/user/v1/refresh-token',
    { config: { access: 'user-pending-2fa' } },
    async (request, reply) => {
      const { password } = parseBody(refreshBody, request.body);
      return reply.type('text/plain; charset=utf-8').send(await refresh(request, password));
    },
  );
};
