import { recoveryCodeCount } from '@flotilla/shared/auth/two-factor';
import type { Queryable } from '../../infra/db/database.js';
import {
  hashRecoveryCode,
  newRecoveryCode,
  recoveryCodeMatches,
  recoveryCodeStoredForm,
} from './recovery-codes.js';

export type TwoFactorState = { secret: string; enabled: boolean; lastStep: number | null };

type StateRow = { secret: string; enabled_at: Date | null; last_step: string | null };

// The user's authenticator (locked with FOR UPDATE inside a transaction, so two codes sent at
// once cannot both pass the single-use check), or undefined when none was set up.
export const readTwoFactor = async (
  db: Queryable,
  userId: number,
  options: { lock?: boolean } = {},
): Promise<TwoFactorState | undefined> => {
  const { rows } = await db.query<StateRow>(
    `SELECT "secret", "enabled_at", "last_step" FROM "user_two_factor" WHERE "user" = $1${
      options.lock === true ? ' FOR UPDATE' : ''
    }`,
    [userId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    secret: row.secret,
    enabled: row.enabled_at !== null,
    lastStep: row.last_step === null ? null : Number(row.last_step),
  };
};

export const isTwoFactorEnabled = async (db: Queryable, userId: number): Promise<boolean> =>
  (await readTwoFactor(db, userId))?.enabled === true;

// A new secret waiting for its first code, replacing one that never got it; false when
// two-factor is already enabled (the enabled secret stays: disable it first).
export const storePendingSecret = async (
  db: Queryable,
  userId: number,
  secret: string,
): Promise<boolean> => {
  const { rowCount } = await db.query(
    `INSERT INTO "user_two_factor" ("user", "secret") VALUES ($1, $2)
     ON CONFLICT ("user") DO UPDATE SET "secret" = EXCLUDED."secret", "last_step" = NULL
       WHERE "user_two_factor"."enabled_at" IS NULL`,
    [userId, secret],
  );
  return rowCount === 1;
};

// Records the step of an accepted code, enabling two-factor on its first code.
export const acceptStep = async (
  db: Queryable,
  userId: number,
  step: number,
  now: Date,
): Promise<void> => {
  await db.query(
    `UPDATE "user_two_factor" SET "last_step" = $2, "enabled_at" = coalesce("enabled_at", $3)
      WHERE "user" = $1`,
    [userId, step, now],
  );
};

export const removeTwoFactor = async (db: Queryable, userId: number): Promise<void> => {
  await db.query('DELETE FROM "user_two_factor" WHERE "user" = $1', [userId]);
  await db.query('DELETE FROM "user_recovery_code" WHERE "user" = $1', [userId]);
};

// Ends every session of the user but the one about to be issued (a new jwt_secret).
export const rotateSessions = async (db: Queryable, userId: number): Promise<void> => {
  await db.query(
    `UPDATE "user" SET "jwt_secret" = flotilla_random_uuid() || flotilla_random_uuid()
      WHERE "id" = $1`,
    [userId],
  );
};

// Replaces every recovery code of the user with new ones and returns them (shown once).
export const replaceRecoveryCodes = async (db: Queryable, userId: number): Promise<string[]> => {
  const codes = Array.from({ length: recoveryCodeCount }, () => newRecoveryCode());
  const hashes = await Promise.all(
    codes.map((code) => hashRecoveryCode(recoveryCodeStoredForm(code))),
  );
  await db.query('DELETE FROM "user_recovery_code" WHERE "user" = $1', [userId]);
  await db.query(
    `INSERT INTO "user_recovery_code" ("user", "code_hash")
     SELECT $1, unnest($2::text[])`,
    [userId, hashes],
  );
  return codes;
};

// Marks an unused code used; false when the user has no such unused code. Each hash has its own
// salt, so every unused code of the user is compared (all of them, so the time taken does not
// tell which one matched); the update is conditional, so a code sent twice at once is used once.
export const consumeRecoveryCode = async (
  db: Queryable,
  userId: number,
  normalizedCode: string,
  now: Date,
): Promise<boolean> => {
  const { rows } = await db.query<{ id: number; code_hash: string }>(
    `SELECT "id", "code_hash" FROM "user_recovery_code" WHERE "user" = $1 AND "used_at" IS NULL`,
    [userId],
  );
  const matches = await Promise.all(
    rows.map((row) => recoveryCodeMatches(normalizedCode, row.code_hash)),
  );
  const matched = rows.find((_row, index) => matches[index] === true);
  if (matched === undefined) return false;
  const { rowCount } = await db.query(
    `UPDATE "user_recovery_code" SET "used_at" = $2 WHERE "id" = $1 AND "used_at" IS NULL`,
    [matched.id, now],
  );
  return rowCount === 1;
};
