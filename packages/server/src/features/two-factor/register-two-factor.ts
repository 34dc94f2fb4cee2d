import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { requireSessionMay } from '../../infra/auth/session-rules.js';
import type { SessionClaims } from '../../infra/auth/session-token.js';
import { badRequest, conflict } from '../../infra/errors/api-error.js';
import { clientAddressKey } from '../../infra/http/client-address.js';
import { parseBody } from '../../infra/http/validate.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { currentSession } from '../auth/current-session.js';
import { carriedClaims, issueSessionToken } from '../auth/issue-session-token.js';
import { createLoginThrottle } from '../auth/login-rate-limit.js';
import { codeOf, invalidCode, passwordBody } from './two-factor-bodies.js';
import {
  acceptStep,
  consumeRecoveryCode,
  readTwoFactor,
  removeTwoFactor,
  replaceRecoveryCodes,
  rotateSessions,
  storePendingSecret,
} from './two-factor-store.js';
import { requireFreshAuthentication } from '../auth/fresh-authentication.js';
import { createTwoFactorThrottle } from './two-factor-throttle.js';
import { acceptedTotpStep, newTotpSecret } from './totp.js';
import { checkCurrentPassword, passwordHashOf } from '../auth/current-password.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const notEnabledMessage = 'Two-factor authentication is not enabled';

const sendToken = (reply: FastifyReply, token: string) =>
  reply.type('text/plain; charset=utf-8').send(token);

// Two-factor authentication (wire contract "auth/totp"): GET /auth/totp/setup
// gives a new secret, the first code POSTed to /auth/totp/verify enables it, and from then on a
// login's session token carries twoFactorRequired: true until a code or a recovery code is
// verified (a pending session may call nothing else: access 'user' refuses it everywhere, see
// infra/http/access.ts). Each success answers the session's new token as text, as balena-sdk
// expects.
export const registerTwoFactor = (app: FastifyInstance, ctx: AppContext): void => {
  const limiter = createRateLimiter(ctx.db, ctx.now);
  const codeThrottle = createTwoFactorThrottle(limiter, ctx.config);
  const passwordThrottle = createLoginThrottle(limiter, ctx.config);

  app.get('/auth/totp/setup', { config: { access: 'user' } }, async (request, reply) => {
    const { userId } = await currentSession(request, ctx);
    requireSessionMay(request.actor, 'manage-two-factor');
    await requireFreshAuthentication(request, ctx);
    const secret = newTotpSecret();
    if (!(await storePendingSecret(ctx.db, userId, secret))) {
      throw conflict('Two-factor authentication is already enabled');
    }
    return reply.type('text/plain; charset=utf-8').send(secret);
  });

  // Enables two-factor (the first code of a new secret; other sessions end, since they never
  // passed it), passes a login's challenge, or just checks a code.
  app.post(
    '/auth/totp/verify',
    { config: { access: 'user-pending-2fa' } },
    async (request, reply) => {
      const { userId, claims } = await currentSession(request, ctx);
      const code = codeOf(request.body);
      const succeeded = await codeThrottle.begin(userId, clientAddressKey(request.ip));
      await recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
        const state = await readTwoFactor(tx, userId, { lock: true });
        if (!state || (claims.twoFactorRequired === true && !state.enabled)) {
          throw badRequest(
            state
              ? notEnabledMessage
              : 'Two-factor authentication is not set up: get a setup key first',
          );
        }
        // The first code enables it: only a session that may set it up may do that.
        if (!state.enabled) requireSessionMay(request.actor, 'manage-two-factor');
        const now = ctx.now();
        const step = acceptedTotpStep(state.secret, code, now, state.lastStep);
        if (step === null) throw invalidCode();
        await acceptStep(tx, userId, step, now);
        if (!state.enabled) await rotateSessions(tx, userId);
      });
      await succeeded();
      return sendToken(reply, await passedToken(ctx, userId, claims));
    },
  );

  app.post('/auth/totp/disable', { config: { access: 'user' } }, async (request, reply) => {
    const { userId, claims } = await currentSession(request, ctx);
    requireSessionMay(request.actor, 'manage-two-factor');
    const { password } = parseBody(passwordBody, request.body);
    await checkCurrentPassword(passwordThrottle, {
      userId,
      ip: request.ip,
      password,
      hash: await passwordHashOf(ctx.db, userId),
    });
    if ((await readTwoFactor(ctx.db, userId))?.enabled !== true)
      throw badRequest(notEnabledMessage);
    await recordedTransaction(ctx.db, request, ctx.now, (tx) => removeTwoFactor(tx, userId));
    const token = await issueSessionToken(ctx, ctx.db, userId, {
      authTime: ctx.now().getTime(),
      ...carriedClaims(claims),
    });
    return sendToken(reply, token);
  });

  // Recovery codes: create replaces every code and answers the new ones as
  // a JSON list, shown once; verify uses one up in place of an authenticator code.
  app.post(
    '/auth/v1/2fa-recover/create',
    { config: { access: 'user' } },
    async (request, reply) => {
      const { userId } = await currentSession(request, ctx);
      requireSessionMay(request.actor, 'manage-two-factor');
      await requireFreshAuthentication(request, ctx);
      const codes = await recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
        if ((await readTwoFactor(tx, userId, { lock: true }))?.enabled !== true) {
          throw badRequest(notEnabledMessage);
        }
        return replaceRecoveryCodes(tx, userId);
      });
      return reply.send(codes);
    },
  );

  app.post(
    '/auth/v1/2fa-recover/verify',
    { config: { access: 'user-pending-2fa' } },
    async (request, reply) => {
      const { userId, claims } = await currentSession(request, ctx);
      const code = codeOf(request.body);
      const succeeded = await codeThrottle.begin(userId, clientAddressKey(request.ip));
      await recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
        if ((await readTwoFactor(tx, userId))?.enabled !== true) {
          throw badRequest(notEnabledMessage);
        }
        if (!(await consumeRecoveryCode(tx, userId, code, ctx.now()))) throw invalidCode();
      });
      await succeeded();
      return sendToken(reply, await passedToken(ctx, userId, claims));
    },
  );
};

// The session's token once its second factor is passed: same login time and real user.
const passedToken = (ctx: AppContext, userId: number, claims: SessionClaims): Promise<string> =>
  issueSessionToken(ctx, ctx.db, userId, {
    authTime: claims.authTime,
    twoFactorRequired: false,
    ...carriedClaims(claims),
  });
