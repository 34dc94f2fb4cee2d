import {
  oauthAccessTokenLifetimeSeconds,
  oauthDescriptionMaxLength,
  oauthNameMaxLength,
  oauthRedirectUriMaxLength,
  redirectUriProblem,
} from '@flotilla/shared/auth/oauth';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { requireSessionMay } from '../../infra/auth/session-rules.js';
import { ApiError, badRequest, notFound } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { clientCredentials } from './client-credentials.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { requirePlatformAdmin } from '../platform-admin/register-platform-admin.js';
import {
  createApplication,
  deleteApplication,
  findApplication,
  listApplications,
  clientAuthenticated,
} from './oauth-applications.js';
import { recordAuthorization } from './oauth-authorizations.js';
import {
  type CodeExchange,
  createAuthorizationCode,
  exchangeAuthorizationCode,
} from './oauth-codes.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const redirectUri = z
  .string()
  .trim()
  .min(1)
  .max(oauthRedirectUriMaxLength)
  .superRefine((value, context) => {
    const problem = redirectUriProblem(value);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  });

const newApplication = z.object({
  name: z.string().trim().min(1).max(oauthNameMaxLength),
  description: z.string().trim().max(oauthDescriptionMaxLength).optional(),
  redirect_uri: redirectUri,
  // A confidential client gets a secret that /oauth/token then requires.
  confidential: z.boolean().optional(),
});

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

const authorizeBody = z.object({
  client_id: z.string().min(1).max(100),
  response_type: z.string().max(50),
  redirect_uri: z.string().max(oauthRedirectUriMaxLength).optional(),
  state: z.string().max(1000).optional(),
  // PKCE (RFC 7636): S256 only; a verifier is 43 to 128 characters, so its challenge is 43.
  code_challenge: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'code_challenge must be the base64url SHA-256 of the verifier')
    .optional(),
  code_challenge_method: z.string().max(20).optional(),
});

const tokenBody = z.object({
  grant_type: z.string().max(50),
  code: z.string().min(1).max(200),
  // Optional when the client authenticates with HTTP Basic (RFC 6749 section 2.3.1).
  client_id: z.string().min(1).max(100).optional(),
  client_secret: z.string().min(1).max(200).optional(),
  redirect_uri: z.string().min(1).max(oauthRedirectUriMaxLength),
  code_verifier: z
    .string()
    .regex(/^[A-Za-z0-9._~-]{43,128}$/, 'code_verifier must be 43 to 128 unreserved characters')
    .optional(),
});

const refusals: Record<Exclude<CodeExchange['status'], 'valid'>, string> = {
  invalid: 'invalid_grant: the code is unknown',
  used: 'invalid_grant: the code was already used',
  expired: 'invalid_grant: the code has expired',
  'wrong-client': 'invalid_grant: the code was issued to another client',
  'wrong-redirect': 'invalid_grant: redirect_uri differs from the registered one',
  'wrong-verifier': 'invalid_grant: code_verifier is missing or does not match the code_challenge',
};

// OAuth 2.0 authorization code grant (RFC 6749 section 4.1) for applications platform
// administrators register. A signed-in user's consent
// (POST /oauth/authorize, from /login/oauth/:clientId) gives a code that only the registered
// redirect URI receives; POST /oauth/token exchanges it once, within oauthCodeLifetimeSeconds, for a
// session token of the user of the kind "OAuth token" (shared/auth/session-kinds.ts): bound to the
// authorization, for oauthAccessTokenLifetimeSeconds at most. Clients are public unless registered confidential (a secret, shown
// once, that the exchange then requires): the code's single use, short life, exact redirect URI
// and, when the client sends a code_challenge, PKCE are what protect a public client's code.
export const registerOAuth = (app: FastifyInstance, ctx: AppContext): void => {
  app.get('/admin/v1/oauth-applications', { config: { access: 'user' } }, async (request) => {
    requirePlatformAdmin(request.actor);
    return listApplications(ctx.db);
  });

  app.post(
    '/admin/v1/oauth-applications',
    { config: { access: 'user' } },
    async (request, reply) => {
      const admin = requirePlatformAdmin(request.actor);
      const body = parseBody(newApplication, request.body);
      const application = {
        name: body.name,
        description:
          body.description === undefined || body.description === '' ? null : body.description,
        redirectUri: body.redirect_uri,
        createdBy: admin.userId,
        confidential: body.confidential ?? false,
      };
      const created = await recordedTransaction(
        ctx.db,
        request,
        ctx.now,
        (tx) => createApplication(tx, application),
        { status: 201 },
      );
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/admin/v1/oauth-applications/:id',
    { config: { access: 'user' } },
    async (request, reply) => {
      requirePlatformAdmin(request.actor);
      const { id } = parseBody(idParams, request.params);
      await recordedTransaction(
        ctx.db,
        request,
        ctx.now,
        async (tx) => {
          if (!(await deleteApplication(tx, id))) throw notFound('No such OAuth application');
        },
        { status: 204 },
      );
      return reply.status(204).send();
    },
  );

  app.post('/oauth/authorize', { config: { access: 'user' } }, async (request) => {
    const actor = request.actor;
    if (actor.kind !== 'user') throw new ApiError('unauthorized', 'Unauthorized');
    // Only the user's own password session consents: the token of a login-as session would no
    // longer name the administrator acting, an OAuth token would hand the user's access on to yet
    // another application, and an API key is nobody at the consent page.
    requireSessionMay(actor, 'authorize-oauth-apps');
    const body = parseBody(authorizeBody, request.body);
    if (body.response_type !== 'code') {
      throw badRequest('unsupported_response_type: only response_type code is supported');
    }
    const application = await findApplication(ctx.db, body.client_id);
    if (!application) throw notFound('Unknown OAuth application');
    if (body.redirect_uri !== undefined && body.redirect_uri !== application.redirectUri) {
      throw badRequest('invalid_request: redirect_uri differs from the registered one');
    }
    if (body.code_challenge === undefined && body.code_challenge_method !== undefined) {
      throw badRequest('invalid_request: code_challenge_method without code_challenge');
    }
    if (body.code_challenge !== undefined && (body.code_challenge_method ?? 'plain') !== 'S256') {
      throw badRequest('invalid_request: code_challenge_method must be S256');
    }
    const now = ctx.now();
    // The consent and its code together: a code never exists without its stored authorization.
    const code = await recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
      await recordAuthorization(tx, { applicationId: application.id, userId: actor.userId }, now);
      return createAuthorizationCode(
        tx,
        {
          applicationId: application.id,
          userId: actor.userId,
          codeChallenge: body.code_challenge ?? null,
        },
        now,
      );
    });
    return {
      code,
      redirect_uri: application.redirectUri,
      ...(body.state !== undefined ? { state: body.state } : {}),
    };
  });

  // Clients send the form encoding RFC 6749 prescribes; JSON is accepted too.
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16_384 },
      (_request, body, parsed) => {
        parsed(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
    scope.post('/oauth/token', { config: { access: 'public' } }, async (request, reply) => {
      const body = parseBody(tokenBody, request.body);
      if (body.grant_type !== 'authorization_code') {
        throw badRequest('unsupported_grant_type: only authorization_code is supported');
      }
      const client = clientCredentials(request.headers.authorization, body);
      // Checked before the code is taken, so a wrong secret does not use it up.
      if (!(await clientAuthenticated(ctx.db, client.clientId, client.secret))) {
        void reply.header('WWW-Authenticate', 'Basic realm="oauth"');
        throw new ApiError(
          'unauthorized',
          'invalid_client: this client must authenticate with its client secret',
        );
      }
      const exchange = await exchangeAuthorizationCode(
        ctx.db,
        {
          code: body.code,
          clientId: client.clientId,
          redirectUri: body.redirect_uri,
          codeVerifier: body.code_verifier ?? null,
        },
        ctx.now(),
      );
      if (exchange.status !== 'valid') throw badRequest(refusals[exchange.status]);
      // The application's session: never a password login (authTime 0, see session-kinds.ts),
      // alive while the authorization is and for oauthAccessTokenLifetimeSeconds at most.
      const expiresBy = Math.floor(ctx.now().getTime() / 1000) + oauthAccessTokenLifetimeSeconds;
      const token = await issueSessionToken(ctx, ctx.db, exchange.userId, {
        authTime: 0,
        oauthAuthorization: exchange.authorizationId,
        expiresBy,
      });
      void reply.header('Cache-Control', 'no-store');
      return {
        access_token: token,
        token_type: 'Bearer',
        expires_in: oauthAccessTokenLifetimeSeconds,
      };
    });
    done();
  });
};
