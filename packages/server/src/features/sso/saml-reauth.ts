import { samlReauthRelayState, samlSignInMessages } from '@flotilla/shared/sso/saml-sign-in';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { requireSessionMay } from '../../infra/auth/session-rules.js';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, unauthorized } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';
import { currentSession } from '../auth/current-session.js';
import { carriedClaims, issueSessionToken } from '../auth/issue-session-token.js';
import { publicUrlOf } from '../mail/register-mail.js';
import type { SamlIdentity } from './saml-assertion.js';
import { SamlRefusal } from './saml-assertion.js';
import { findLoginCode, spendLoginCode } from './saml-codes.js';
import { findProvider, samlFor, serviceProviderUrls } from './saml-service-provider.js';

const codeBody = z.object({ code: z.string().min(1).max(200) });

// The user an assertion confirms for a re-authentication: only an account already linked to this
// provider (never one created just in time, never a merge).
export const resolveReauth = async (
  tx: Queryable,
  providerId: number,
  identity: Pick<SamlIdentity, 'remoteId'>,
): Promise<{ kind: 'reauth'; userId: number }> => {
  const { rows } = await tx.query<{ user: number }>(
    `SELECT "belongs_to__user" AS "user" FROM "saml_account"
      WHERE "was_generated_by__identity_provider" = $1 AND "remote_id" = $2`,
    [providerId, identity.remoteId],
  );
  const linked = rows[0];
  if (!linked) throw new SamlRefusal(samlSignInMessages.reauthNotLinked);
  return { kind: 'reauth', userId: linked.user };
};

// Re-authentication through the SAML identity provider an account came from:
// - POST /auth/saml/reauth: the re-authentication dialog's "Continue with" (a session that may
//   count as freshly authenticated): the identity provider's address, with the re-authentication
//   RelayState; its assertion comes back to the usual assertion consumer service.
// - POST /auth/saml/reauthenticate {code}: the console's re-authentication page spends the code
//   with the same user's session and gets that session's token with authTime now.
export const registerSamlReauth = (app: FastifyInstance, ctx: AppContext): void => {
  app.post('/auth/saml/reauth', { config: { access: 'user' } }, async (request) => {
    const actor = request.actor;
    if (actor.kind !== 'user') throw unauthorized();
    requireSessionMay(actor, 'fresh-authentication');
    const { rows } = await ctx.db.query<{ sso_identifier: string }>(
      `SELECT p."sso_identifier" FROM "saml_account" a
         JOIN "identity_provider" p ON p."id" = a."was_generated_by__identity_provider"
        WHERE a."belongs_to__user" = $1 ORDER BY a."id" LIMIT 1`,
      [actor.userId],
    );
    const identifier = rows[0]?.sso_identifier;
    const provider = identifier === undefined ? undefined : await findProvider(ctx.db, identifier);
    if (!provider) throw badRequest(samlSignInMessages.reauthNoAccount);
    const urls = serviceProviderUrls(
      publicUrlOf(app, ctx.config.publicUrl),
      provider.sso_identifier,
    );
    const url = await samlFor(provider, urls).getAuthorizeUrlAsync(
      samlReauthRelayState,
      undefined,
      {},
    );
    return { url };
  });

  app.post('/auth/saml/reauthenticate', { config: { access: 'user' } }, async (request, reply) => {
    const { code } = parseBody(codeBody, request.body);
    const actor = request.actor;
    if (actor.kind !== 'user') throw unauthorized();
    requireSessionMay(actor, 'fresh-authentication');
    const { claims } = await currentSession(request, ctx);
    const now = ctx.now();
    await recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
      const found = await findLoginCode(tx, code, now);
      if (!found || found.kind !== 'reauth') throw badRequest(samlSignInMessages.invalidCode);
      // 400, not 401: the console reads a 401 as its own session ended.
      if (found.userId !== actor.userId) throw badRequest(samlSignInMessages.reauthWrongAccount);
      await spendLoginCode(tx, code, now);
    });
    request.log.info({ userId: actor.userId }, 'saml re-authentication');
    const token = await issueSessionToken(ctx, ctx.db, actor.userId, {
      authTime: now.getTime(),
      ...carriedClaims(claims),
    });
    return reply.type('text/plain; charset=utf-8').send(token);
  });
};
