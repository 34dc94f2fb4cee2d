import { samlReauthRelayState, samlSignInMessages } from '@flotilla/shared/sso/saml-sign-in';
import { ssoIdentifierMaxLength } from '@flotilla/shared/sso/identity-provider-rules';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { ApiError, badRequest, notFound } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { publicUrlOf } from '../mail/register-mail.js';
import { isTwoFactorEnabled } from '../two-factor/two-factor-store.js';
import { acceptAssertion, SamlRefusal } from './saml-assertion.js';
import { linkSamlAccount, resolveSignIn } from './saml-accounts.js';
import { createLoginCode, findLoginCode, forgetExpired, spendLoginCode } from './saml-codes.js';
import { registerSamlReauth, resolveReauth } from './saml-reauth.js';
import { findProvider, samlFor, serviceProviderUrls } from './saml-service-provider.js';

const identifierParams = z.object({
  ssoIdentifier: z.string().min(1).max(ssoIdentifierMaxLength),
});

// The identity provider posts the response form (HTTP-POST binding); a signed response with a
// certificate chain stays well under this.
const acsBodyLimit = 512 * 1024;

const acsBody = z.object({
  SAMLResponse: z.string().min(1).max(acsBodyLimit),
  RelayState: z.string().max(2000).optional(),
});

const finalizeBody = z.object({
  code: z.string().min(1).max(200),
  // balena's console also sends the signed-in user's token; the Authorization header decides.
  jwt: z.string().max(4000).optional(),
});

const providerOr404 = async (ctx: AppContext, ssoIdentifier: string) => {
  const provider = await findProvider(ctx.db, ssoIdentifier);
  if (!provider) throw notFound(samlSignInMessages.unknownIdentifier);
  return provider;
};

// SAML sign-in: SP-initiated login, the assertion consumer service, the one-time code's
// finalization, and the service provider metadata an identity provider imports.
export const registerSaml = (app: FastifyInstance, ctx: AppContext): void => {
  const base = () => publicUrlOf(app, ctx.config.publicUrl);
  registerSamlReauth(app, ctx);

  app.get('/auth/saml/:ssoIdentifier', { config: { access: 'public' } }, async (request, reply) => {
    const { ssoIdentifier } = parseBody(identifierParams, request.params);
    const provider = await providerOr404(ctx, ssoIdentifier);
    const urls = serviceProviderUrls(base(), provider.sso_identifier);
    const url = await samlFor(provider, urls).getAuthorizeUrlAsync('', undefined, {});
    return reply.redirect(url, 302);
  });

  app.get(
    '/auth/saml/:ssoIdentifier/metadata',
    { config: { access: 'public' } },
    async (request, reply) => {
      const { ssoIdentifier } = parseBody(identifierParams, request.params);
      const provider = await providerOr404(ctx, ssoIdentifier);
      const urls = serviceProviderUrls(base(), provider.sso_identifier);
      const xml = samlFor(provider, urls).generateServiceProviderMetadata(null, null);
      return reply.type('application/samlmetadata+xml; charset=utf-8').send(xml);
    },
  );

  const toConsole = (reply: FastifyReply, path: string, query: Record<string, string>) =>
    reply.redirect(`${base()}${path}?${new URLSearchParams(query).toString()}`, 303);

  void app.register((scope, _options, done) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: acsBodyLimit * 2 },
      (_request, body, parsed) => {
        parsed(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
    scope.post(
      '/auth/saml/:ssoIdentifier/callback',
      { config: { access: 'public' } },
      async (request, reply) => {
        const { ssoIdentifier } = parseBody(identifierParams, request.params);
        const { SAMLResponse, RelayState } = parseBody(acsBody, request.body);
        // A re-authentication confirms a signed-in user: its code goes to the console's
        // re-authentication page, and nobody is created or merged.
        const reauth = RelayState === samlReauthRelayState;
        const failed = reauth ? '/saml/callback/reauth' : '/login';
        const provider = await findProvider(ctx.db, ssoIdentifier);
        if (!provider) {
          return toConsole(reply, failed, { saml_error: samlSignInMessages.unknownIdentifier });
        }
        const now = ctx.now();
        await forgetExpired(ctx.db, now);
        const urls = serviceProviderUrls(base(), provider.sso_identifier);
        try {
          // The account (created or linked), the code and the audit record commit together; a
          // refused assertion writes nothing and is recorded once answered.
          const result = await recordedTransaction(
            ctx.db,
            request,
            ctx.now,
            async (tx) => {
              const identity = await acceptAssertion(tx, provider, urls, SAMLResponse, now);
              const outcome = reauth
                ? await resolveReauth(tx, provider.id, identity)
                : await resolveSignIn(tx, provider.id, identity);
              const code = await createLoginCode(tx, outcome, provider.id, identity, now);
              return { outcome, code, email: identity.email };
            },
            { status: 303 },
          );
          request.log.info(
            { userId: result.outcome.userId, identityProvider: provider.id },
            `saml ${result.outcome.kind}`,
          );
          if (result.outcome.kind === 'reauth') {
            return toConsole(reply, '/saml/callback/reauth', { code: result.code });
          }
          return result.outcome.kind === 'signon'
            ? toConsole(reply, '/saml/callback/signon', { code: result.code })
            : toConsole(reply, '/saml/callback/merge', {
                code: result.code,
                shouldMergeWith: result.email,
              });
        } catch (error) {
          if (!(error instanceof SamlRefusal)) throw error;
          request.log.info(
            { identityProvider: provider.id, reason: error.message },
            'saml refused',
          );
          return toConsole(reply, failed, { saml_error: error.message });
        }
      },
    );
    done();
  });

  app.post('/auth/saml/finalize', { config: { access: 'public' } }, async (request, reply) => {
    const { code } = parseBody(finalizeBody, request.body);
    const now = ctx.now();
    const userId = await recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
      const found = await findLoginCode(tx, code, now);
      // A re-authentication's code signs nobody in (POST /auth/saml/reauthenticate spends it).
      if (!found || found.kind === 'reauth') throw badRequest(samlSignInMessages.invalidCode);
      if (found.kind === 'merge') {
        const actor = request.actor;
        if (actor.kind !== 'user' || actor.via !== 'session' || actor.twoFactorPending) {
          throw new ApiError('unauthorized', samlSignInMessages.mergeRequiresLogin);
        }
        const { rows } = await tx.query<{ email: string | null }>(
          'SELECT "email" FROM "user" WHERE "id" = $1',
          [actor.userId],
        );
        const email = rows[0]?.email ?? '';
        if (
          actor.userId !== found.userId ||
          email.toLowerCase() !== (found.email ?? '').toLowerCase()
        ) {
          throw badRequest(samlSignInMessages.mergeEmailMismatch);
        }
        await linkSamlAccount(tx, found.providerId, found.userId, found);
      }
      await spendLoginCode(tx, code, now);
      return found.userId;
    });
    const token = await issueSessionToken(ctx, ctx.db, userId, {
      ...((await isTwoFactorEnabled(ctx.db, userId)) ? { twoFactorRequired: true } : {}),
    });
    return reply.type('text/plain; charset=utf-8').send(token);
  });
};
