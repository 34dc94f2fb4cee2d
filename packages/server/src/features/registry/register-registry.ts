import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { createActorResolver } from '../../infra/auth/resolve-actor.js';
import { unauthorized } from '../../infra/errors/api-error.js';
import { clientAddressKey } from '../../infra/http/client-address.js';
import { verifyEmailFirstMessage } from '../../infra/http/email-verification-gate.js';
import type { ActorResolver } from '../../infra/http/create-app.js';
import { parseBody } from '../../infra/http/validate.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { createCredentialResolver, type CredentialResolver } from '../auth/credential-throttle.js';
import { defaultRegistryHost } from '../releases/image-location.js';
import { grantedAccess } from './registry-access.js';
import { parseScopes, scopeValuesOf } from './registry-scope.js';
import { loadRegistrySigningKey, type RegistrySigningKey } from './registry-signing-key.js';
import { signRegistryToken } from './registry-token.js';

// docker sends `account`, `client_id` and `offline_token` too; they change nothing here. The
// scope list comes in several forms (registry-scope.ts reads them all).
const tokenQuery = z.looseObject({
  service: z
    .string({ error: 'service is required (the registry the token is for)' })
    .min(1)
    .max(255),
});

const challenge = 'Basic realm="Flotilla registry token service", charset="UTF-8"';

// The credential of a token request: docker sends Basic (any username, the password being a
// session token or an API key: balena-supervisor uses `d_<uuid>` and its device key), balena-cli
// sends its Bearer token (resolved by the app like on every route). Wrong Basic passwords are
// rate-limited by client address (features/auth/credential-throttle.ts).
const actorOf = async (request: FastifyRequest, resolve: CredentialResolver): Promise<Actor> => {
  const header = request.headers.authorization ?? '';
  if (/^basic /i.test(header)) {
    const decoded = Buffer.from(header.slice('basic '.length).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const password = colon < 0 ? '' : decoded.slice(colon + 1);
    if (password === '') throw unauthorized('The credentials need a password');
    return resolve(password, clientAddressKey(request.ip));
  }
  return request.actor;
};

const subjectOf = async (ctx: AppContext, actor: Actor): Promise<string> => {
  if (actor.kind === 'user') {
    const { rows } = await ctx.db.query<{ username: string }>(
      'SELECT "username" FROM "user" WHERE "id" = $1',
      [actor.userId],
    );
    return rows[0]?.username ?? `user_${actor.userId}`;
  }
  if (actor.kind === 'device') {
    const { rows } = await ctx.db.query<{ uuid: string }>(
      'SELECT "uuid" FROM "device" WHERE "id" = $1',
      [actor.deviceId],
    );
    return `d_${rows[0]?.uuid ?? actor.deviceId}`;
  }
  return actor.kind === 'application' ? `fleet_${actor.applicationId}` : 'anonymous';
};

export type RegistryOptions = {
  // The app's resolver (with its cache); tests use a plain one.
  resolveActor?: ActorResolver;
};

// The Docker registry token service (wire contract: features/registry): tokens for the registry
// the operator runs, scoped to what the caller may push or pull. The signing key lives in the
// data directory; its certificate is served for the registry's configuration.
export const registerRegistry = (
  app: FastifyInstance,
  ctx: AppContext,
  options: RegistryOptions = {},
): void => {
  const resolveCredential = createCredentialResolver(
    options.resolveActor ?? createActorResolver(ctx),
    createRateLimiter(ctx.db, ctx.now),
    ctx.config,
  );
  const registryHost = ctx.config.registry?.host ?? defaultRegistryHost;
  let signingKey: Promise<RegistrySigningKey> | undefined;
  const keyOf = (): Promise<RegistrySigningKey> => {
    signingKey ??= loadRegistrySigningKey(ctx.config.dataDir).catch((error: unknown) => {
      signingKey = undefined;
      throw error;
    });
    return signingKey;
  };

  app.get(
    '/auth/v1/token',
    {
      // An unverified user keeps their identity here, to be told why they get no token.
      config: { access: 'public', unverifiedUsers: 'allowed' },
      // Docker clients only retry with credentials when a 401 says how to send them.
      onSend: async (_request, reply, payload) => {
        if (reply.statusCode === 401) void reply.header('WWW-Authenticate', challenge);
        return payload;
      },
    },
    async (request, reply) => {
      const query = parseBody(tokenQuery, request.query);
      const scopes = parseScopes(scopeValuesOf(query));
      const actor = await actorOf(request, resolveCredential);
      if (actor.kind === 'anonymous') throw unauthorized('Sign in to get a registry token');
      if (actor.kind === 'user' && actor.twoFactorPending) {
        throw unauthorized('Complete two-factor authentication first');
      }
      // As git push and every route that is not theirs yet (email-verification-gate.ts).
      if (actor.kind === 'user' && actor.emailVerificationPending) {
        throw unauthorized(verifyEmailFirstMessage);
      }
      const access = await grantedAccess(ctx.db, actor, registryHost, scopes);
      const answer = await signRegistryToken(await keyOf(), {
        issuer: ctx.config.registryTokenIssuer,
        audience: query.service,
        subject: await subjectOf(ctx, actor),
        access,
        now: ctx.now(),
      });
      return reply.header('cache-control', 'no-store').send(answer);
    },
  );

  // The certificate the registry trusts (auth.token.rootcertbundle); public by nature.
  app.get(
    '/auth/v1/registry-certificate',
    { config: { access: 'public' } },
    async (_request, reply) =>
      reply.type('application/x-pem-file').send((await keyOf()).certificatePem),
  );
};
