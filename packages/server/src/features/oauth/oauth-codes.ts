import { createHash, randomBytes } from 'node:crypto';
import { oauthCodeLifetimeSeconds } from '@flotilla/shared/auth/oauth';
import type { Queryable } from '../../infra/db/database.js';

const hashOf = (code: string): string => createHash('sha256').update(code).digest('hex');

// A new code for the user's consent to the application, valid once for oauthCodeLifetimeSeconds.
export const createAuthorizationCode = async (
  db: Queryable,
  grant: { applicationId: number; userId: number; codeChallenge: string | null },
  now: Date,
): Promise<string> => {
  const code = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO "oauth_authorization_code"
       ("code_hash", "oauth_application", "user", "created_at", "expires_at", "code_challenge")
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      hashOf(code),
      grant.applicationId,
      grant.userId,
      now,
      new Date(now.getTime() + oauthCodeLifetimeSeconds * 1000),
      grant.codeChallenge,
    ],
  );
  return code;
};

export type CodeExchange =
  | { status: 'valid'; userId: number; authorizationId: number }
  | {
      status: 'invalid' | 'expired' | 'used' | 'wrong-client' | 'wrong-redirect' | 'wrong-verifier';
    };

// RFC 7636 section 4.6: BASE64URL(SHA256(verifier)).
const challengeOf = (verifier: string): string =>
  createHash('sha256').update(verifier).digest('base64url');

// Takes the code for the client (one statement: two exchanges racing with one code cannot both
// pass). It is used up even when the client or redirect URI is wrong, so a leaked code is
// worth one try at most.
export const exchangeAuthorizationCode = async (
  db: Queryable,
  exchange: { code: string; clientId: string; redirectUri: string; codeVerifier: string | null },
  now: Date,
): Promise<CodeExchange> => {
  const { rows } = await db.query<{
    user: number;
    authorization: number | null;
    expired: boolean;
    was_used: boolean;
    client_id: string;
    redirect_uri: string;
    code_challenge: string | null;
  }>(
    `WITH "taken" AS (
       SELECT c."id", c."used_at" IS NOT NULL AS "was_used" FROM "oauth_authorization_code" c
        WHERE c."code_hash" = $1 FOR UPDATE
     ), "marked" AS (
       UPDATE "oauth_authorization_code" c SET "used_at" = coalesce(c."used_at", $2)
         FROM "taken" t WHERE c."id" = t."id"
       RETURNING c."user", c."oauth_application", c."expires_at" <= $2 AS "expired", t."was_used",
                 c."code_challenge"
     )
     SELECT m."user", m."expired", m."was_used", m."code_challenge", a."client_id", a."redirect_uri",
            oa."id" AS "authorization"
       FROM "marked" m JOIN "oauth_application" a ON a."id" = m."oauth_application"
       LEFT JOIN "oauth_application_authorization" oa
         ON oa."belongs_to__user" = m."user" AND oa."is_for__oauth_application" = a."id"`,
    [hashOf(exchange.code), now],
  );
  const row = rows[0];
  if (!row) return { status: 'invalid' };
  if (row.was_used) return { status: 'used' };
  if (row.expired) return { status: 'expired' };
  if (row.client_id !== exchange.clientId) return { status: 'wrong-client' };
  if (row.redirect_uri !== exchange.redirectUri) return { status: 'wrong-redirect' };
  if (
    row.code_challenge !== null &&
    (exchange.codeVerifier === null || challengeOf(exchange.codeVerifier) !== row.code_challenge)
  ) {
    return { status: 'wrong-verifier' };
  }
  // Revoking deletes the unused codes with the authorization; this is for the code in flight.
  if (row.authorization === null) return { status: 'invalid' };
  return { status: 'valid', userId: row.user, authorizationId: row.authorization };
};
