import { createHash, randomBytes } from 'node:crypto';
import { passwordResetLifetimeMinutes } from '@flotilla/shared/auth/account-mail';
import type { Queryable } from '../../infra/db/database.js';

const hashOf = (code: string): string => createHash('sha256').update(code).digest('hex');

// A new single-use code for the user, ending every older one (only the latest mail works).
export const createResetCode = async (
  tx: Queryable,
  userId: number,
  now: Date,
): Promise<{ code: string; expiresAt: Date }> => {
  const code = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + passwordResetLifetimeMinutes * 60_000);
  await tx.query(
    `UPDATE "password_reset_code" SET "used_at" = $2 WHERE "user" = $1 AND "used_at" IS NULL`,
    [userId, now],
  );
  await tx.query(
    `INSERT INTO "password_reset_code" ("user", "code_hash", "created_at", "expires_at")
     VALUES ($1, $2, $3, $4)`,
    [userId, hashOf(code), now, expiresAt],
  );
  return { code, expiresAt };
};

export type CodeCheck = { status: 'valid'; userId: number } | { status: 'expired' | 'invalid' };

// Takes the code (row-locked, so two resets racing with one link cannot both pass): a valid one
// is used up together with every other open code of its user. Unknown and used codes are
// 'invalid', past their expiry 'expired'.
export const consumeResetCode = async (
  tx: Queryable,
  code: string,
  now: Date,
): Promise<CodeCheck> => {
  const { rows } = await tx.query<{ user: number; expires_at: Date; used_at: Date | null }>(
    `SELECT "user", "expires_at", "used_at" FROM "password_reset_code"
      WHERE "code_hash" = $1 FOR UPDATE`,
    [hashOf(code)],
  );
  const row = rows[0];
  if (!row || row.used_at !== null) return { status: 'invalid' };
  if (row.expires_at.getTime() <= now.getTime()) return { status: 'expired' };
  await tx.query(
    `UPDATE "password_reset_code" SET "used_at" = $2 WHERE "user" = $1 AND "used_at" IS NULL`,
    [row.user, now],
  );
  return { status: 'valid', userId: row.user };
};
