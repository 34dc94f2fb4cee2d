import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../infra/db/database.js';
import type { SamlIdentity } from './saml-assertion.js';
import type { SignInOutcome } from './saml-accounts.js';

// What a code is for: a sign-in or merge, or a signed-in user's re-authentication.
export type LoginCodeKind = SignInOutcome['kind'] | 'reauth';

// The console finalizes the code right after the redirect; a merge waits for the user to sign in
// and tick the consent boxes.
const codeLifetimeMs: Record<LoginCodeKind, number> = {
  signon: 5 * 60 * 1000,
  merge: 30 * 60 * 1000,
  reauth: 5 * 60 * 1000,
};

const hashOf = (code: string): string => createHash('sha256').update(code).digest('hex');

export const createLoginCode = async (
  tx: Queryable,
  outcome: { kind: LoginCodeKind; userId: number },
  providerId: number,
  identity: SamlIdentity,
  now: Date,
): Promise<string> => {
  const code = randomBytes(32).toString('base64url');
  await tx.query(
    `INSERT INTO "saml_login_code" ("code_hash", "kind", "user", "identity_provider", "remote_id", "display_name", "expires_at")
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      hashOf(code),
      outcome.kind,
      outcome.userId,
      providerId,
      identity.remoteId,
      identity.displayName,
      new Date(now.getTime() + codeLifetimeMs[outcome.kind]),
    ],
  );
  return code;
};

export type LoginCode = {
  kind: LoginCodeKind;
  userId: number;
  providerId: number;
  remoteId: string;
  displayName: string | null;
  email: string | null;
};

// The unused, unexpired code, locked until the caller's transaction ends; spendLoginCode marks it
// used, so a refused finalize (the wrong user signed in) leaves it for a second try.
export const findLoginCode = async (
  tx: Queryable,
  code: string,
  now: Date,
): Promise<LoginCode | undefined> => {
  const { rows } = await tx.query<{
    kind: LoginCodeKind;
    user: number;
    identity_provider: number;
    remote_id: string;
    display_name: string | null;
    email: string | null;
  }>(
    `SELECT c."kind", c."user", c."identity_provider", c."remote_id", c."display_name", u."email"
       FROM "saml_login_code" c JOIN "user" u ON u."id" = c."user"
      WHERE c."code_hash" = $1 AND c."used_at" IS NULL AND c."expires_at" > $2
      FOR UPDATE OF c`,
    [hashOf(code), now],
  );
  const row = rows[0];
  return row
    ? {
        kind: row.kind,
        userId: row.user,
        providerId: row.identity_provider,
        remoteId: row.remote_id,
        displayName: row.display_name,
        email: row.email,
      }
    : undefined;
};

export const spendLoginCode = async (tx: Queryable, code: string, now: Date): Promise<void> => {
  await tx.query('UPDATE "saml_login_code" SET "used_at" = $2 WHERE "code_hash" = $1', [
    hashOf(code),
    now,
  ]);
};

// Codes and assertion ids past their use: dropped as new ones arrive.
export const forgetExpired = async (db: Queryable, now: Date): Promise<void> => {
  await db.query('DELETE FROM "saml_login_code" WHERE "expires_at" < $1', [now]);
  await db.query('DELETE FROM "saml_assertion_use" WHERE "expires_at" < $1', [now]);
};
