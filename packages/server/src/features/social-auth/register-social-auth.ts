import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  type SocialExchangeAnswer,
  type SocialProvider,
  socialAuthMessages,
  socialProviderLabels,
  socialProviders,
} from '@flotilla/shared/social-auth/social-providers';
import type { AppContext } from '../../app-context.js';
import { verifyAgainstDummy, verifyPassword } from '../../infra/auth/passwords.js';
import { requireUserSessionMay } from '../../infra/auth/session-rules.js';
import { ApiError, badRequest, notFound } from '../../infra/errors/api-error.js';
import { clientAddressKey } from '../../infra/http/client-address.js';
import { parseBody } from '../../infra/http/validate.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { invalidCredentialsMessage } from '../auth/login.js';
import { createLoginThrottle, loginAccountKey } from '../auth/login-rate-limit.js';
import { clearFlowCookie, readFlowCookie, setFlowCookie } from './flow-cookie.js';
import { createProviderClients, type ProviderClient } from './provider-clients.js';
import { reauthenticateWith, reauthStarter } from './social-reauth.js';
import { linkToUser, sessionFor, signInWith } from './social-sign-in.js';
import { createSocialTokens } from './social-tokens.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const exchangeBody = z.object({
  // The query string the provider sent the browser back with (code, state, iss or error).
  query: z.string().max(8192),
});

const linkConfirmBody = z.object({
  linkToken: z.string().min(1).max(4096),
  password: z.string().min(1).max(4096),
});

// The console's page the provider sends the browser back to.
const redirectUriOf = (ctx: AppContext, request: FastifyRequest, provider: SocialProvider) =>
  `${ctx.config.publicUrl ?? `${request.protocol}://${request.host}`}/auth/${provider}/callback`;

// GitHub and Google sign-in (OAuth 2.0 with PKCE, OpenID Connect for Google, through
// openid-client):
// - GET /auth/{provider}: the login page's button; redirects to the provider.
// - POST /auth/{provider}/link: Preferences' "link" (a password session): the provider's URL.
// - POST /auth/{provider}/reauth: the re-authentication dialog's "Continue with" (a session of
//   an account linked to the provider): the provider's URL.
// - POST /auth/{provider}/exchange: the console's callback page hands over the provider's answer,
//   checked against the flow cookie of the browser that started it.
// - POST /auth/{provider}/link-confirm: an existing account's password links a pending account.
// Every route exists for every provider; an unconfigured one answers 404 in words.
export const registerSocialAuth = (app: FastifyInstance, ctx: AppContext): void => {
  const clients = createProviderClients(ctx.config.socialAuth);
  const tokens = createSocialTokens(ctx.jwtSecret, ctx.now);
  const deps = { ...ctx, tokens };
  const throttle = createLoginThrottle(createRateLimiter(ctx.db, ctx.now), ctx.config);

  const clientOf = (provider: SocialProvider): ProviderClient => {
    const client = clients[provider];
    if (!client) throw notFound(socialAuthMessages.notConfigured(socialProviderLabels[provider]));
    return client;
  };

  const begin = async (
    request: FastifyRequest,
    provider: SocialProvider,
    signedIn: { linkUserId: number } | { reauthUserId: number } | undefined,
  ): Promise<{ url: string; cookie: string }> => {
    const redirectUri = redirectUriOf(ctx, request, provider);
    const started = await clientOf(provider).start(redirectUri);
    const cookie = await tokens.signFlow({
      provider,
      state: started.state,
      verifier: started.verifier,
      redirectUri,
      ...(started.nonce === undefined ? {} : { nonce: started.nonce }),
      ...signedIn,
    });
    return { url: started.url, cookie };
  };

  for (const provider of socialProviders) {
    app.get(`/auth/${provider}`, { config: { access: 'public' } }, async (request, reply) => {
      let started: { url: string; cookie: string };
      try {
        started = await begin(request, provider, undefined);
      } catch (error) {
        // A browser followed the login page's button: it goes back there with the reason (not
        // configured, provider unreachable) rather than to an error document.
        if (!(error instanceof ApiError)) throw error;
        if (error.code === 'service_unavailable')
          request.log.warn({ err: error.cause }, error.message);
        return reply.redirect(`/login?social_error=${encodeURIComponent(error.message)}`, 302);
      }
      setFlowCookie(request, reply, started.cookie);
      return reply.redirect(started.url, 302);
    });

    app.post(`/auth/${provider}/link`, { config: { access: 'user' } }, async (request, reply) => {
      const actor = request.actor;
      // A new way into the account: only its owner's own password session adds one.
      requireUserSessionMay(actor, 'link-accounts');
      if (actor.kind !== 'user') throw new ApiError('unauthorized', 'Unauthorized');
      const { url, cookie } = await begin(request, provider, { linkUserId: actor.userId });
      setFlowCookie(request, reply, cookie);
      return { url };
    });

    app.post(`/auth/${provider}/reauth`, { config: { access: 'user' } }, async (request, reply) => {
      const reauthUserId = await reauthStarter(ctx, request, provider);
      const { url, cookie } = await begin(request, provider, { reauthUserId });
      setFlowCookie(request, reply, cookie);
      return { url };
    });

    app.post(
      `/auth/${provider}/exchange`,
      { config: { access: 'public' } },
      async (request, reply): Promise<SocialExchangeAnswer> => {
        const { query } = parseBody(exchangeBody, request.body);
        const cookie = readFlowCookie(request);
        const flow = cookie === undefined ? undefined : await tokens.verifyFlow(cookie);
        // The note is single-use: whatever happens next, a second answer needs a new start.
        clearFlowCookie(request, reply);
        if (!flow || flow.provider !== provider) throw badRequest(socialAuthMessages.flowExpired);
        const params = new URLSearchParams(query);
        if (params.get('state') !== flow.state) {
          request.log.info({ provider }, 'social sign-in state mismatch');
          throw badRequest(socialAuthMessages.stateMismatch);
        }
        const identity = await clientOf(provider)
          .finish(flow.redirectUri, params, flow)
          .catch((error: unknown) => {
            // The operator's to see (a wrong secret, an unreachable provider); never a secret.
            request.log.warn(
              { provider, err: error instanceof ApiError && error.cause ? error.cause : error },
              'social sign-in: the provider did not complete it',
            );
            throw error;
          });
        if (flow.reauthUserId !== undefined) {
          return reauthenticateWith(ctx, request, provider, identity, flow.reauthUserId);
        }
        if (flow.linkUserId !== undefined) {
          const userId = flow.linkUserId;
          await recordedTransaction(ctx.db, request, ctx.now, (tx) =>
            linkToUser(tx, provider, identity, userId),
          );
          request.log.info({ userId: flow.linkUserId, provider }, 'social account linked');
          return { outcome: 'linked' };
        }
        // An account created (or its link's name refreshed) commits with the audit record.
        const answer = await signInWith(deps, provider, identity, (work) =>
          recordedTransaction(ctx.db, request, ctx.now, work),
        );
        request.log.info({ provider, outcome: answer.outcome }, 'social sign-in');
        return answer;
      },
    );

    app.post(
      `/auth/${provider}/link-confirm`,
      { config: { access: 'public' } },
      async (request): Promise<SocialExchangeAnswer> => {
        const body = parseBody(linkConfirmBody, request.body);
        const pending = await tokens.verifyLink(body.linkToken);
        if (!pending || pending.provider !== provider) {
          throw badRequest(socialAuthMessages.linkExpired);
        }
        const attempt = await throttle.begin(
          loginAccountKey(pending.userId, ''),
          clientAddressKey(request.ip),
        );
        const { rows } = await ctx.db.query<{ password_hash: string | null }>(
          'SELECT "password_hash" FROM "user" WHERE "id" = $1',
          [pending.userId],
        );
        const hash = rows[0]?.password_hash;
        const valid = hash
          ? await verifyPassword(body.password, hash)
          : await verifyAgainstDummy(body.password);
        if (!valid) {
          request.log.info(
            { userId: pending.userId, ip: request.ip },
            'social link: wrong password',
          );
          // 400, not /login_'s 401: the caller holds no session, and a 401 tells clients theirs ended.
          throw badRequest(invalidCredentialsMessage);
        }
        await attempt.succeeded();
        await recordedTransaction(ctx.db, request, ctx.now, (tx) =>
          linkToUser(tx, provider, pending, pending.userId),
        );
        request.log.info({ userId: pending.userId, provider }, 'social account linked');
        return { outcome: 'signed-in', token: await sessionFor(deps, pending.userId) };
      },
    );
  }
};
