import { createHash, randomBytes } from 'node:crypto';
import { oauthCodeLifetimeSeconds } from '@flotilla/shared/auth/oauth';
import type { Queryable } from '../../infra/db/database.js';

const hashOf = (code: string): string => createHash('sha256').update(code).digest('hex');

// A new code for the user's consent to the application, valid once for oauthCodeLifetimeSeconds.
export const createAuthorizationCode = async (
  db: Queryable,
  applicationId: number,
  userId: number,
  now: Date,
): Promise<string> => {
  const code = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO "oauth_authorization_code"
       ("code_hash", "oauth_application", "user", "created_at", "expires_at")
     VALUES ($1, $2, $3, $4, $5)`,
    [
      hashOf(code),
      applicationId,
      userId,
      now,
      new Date(now.getTime() + oauthCodeLifetimeSeconds * 1000),
    ],
  );
  return code;
};

export type CodeExchange =
  | { status: 'valid'; userId: number }
  | { status: 'invalid' | 'expired' | 'used' | 'wrong-client' | 'wrong-redirect' };

// Takes the code for the client (one statement: two exchanges racing with one code cannot both
// pass). It is used up even when the client or redirect URI is wrong, so a leaked code is
// worth one try at most.
export const exchangeAuthorizationCode = async (
  db: Queryable,
  exchange: { code: string; clientId: string; redirectUri: string },
  now: Date,
): Promise<CodeExchange> => {
  const { rows } = await db.query<{
    user: number;
    expired: boolean;
    was_used: boolean;
    client_id: string;
    redirect_uri: string;
  }>(
    `WITH "taken" AS (
       SELECT c."id", c."used_at" IS NOT NULL AS "was_used" FROM "oauth_authorization_code" c
        WHERE c."code_hash" = $1 FOR UPDATE
     ), "marked" AS (
       UPDATE "oauth_authorization_code" c SET "used_at" = coalesce(c."used_at", $2)
         FROM "taken" t WHERE c."id" = t."id"
       RETURNING c."user", c."oauth_application", c."expires_at" <= $2 AS "expired", t."was_used"
     )
     SELECT m."user", m."expired", m."was_used", a."client_id", a."redirect_uri"
       FROM "marked" m JOIN "oauth_application" a ON a."id" = m."oauth_application"`,
    [hashOf(exchange.code), now],
  );
  const row = rows[0];
  if (!row) return { status: 'invalid' };
  if (row.was_used) return { status: 'used' };
  if (row.expired) return { status: 'expired' };
  if (row.client_id !== exchange.clientId) return { status: 'wrong-client' };
  if (row.redirect_uri !== exchange.redirectUri) return { status: 'wrong-redirect' };
  return { status: 'valid', userId: row.user };
};
