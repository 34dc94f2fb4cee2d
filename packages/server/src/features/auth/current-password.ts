import { verifyPassword } from '../../infra/auth/passwords.js';
import type { Queryable } from '../../infra/db/database.js';
import { unauthorized } from '../../infra/errors/api-error.js';
import { clientAddressKey } from '../../infra/http/client-address.js';
import { loginAccountKey, type LoginThrottle } from './login-rate-limit.js';

// The user's stored password hash; null when they have none (or no longer exist).
export const passwordHashOf = async (db: Queryable, userId: number): Promise<string | null> => {
  const { rows } = await db.query<{ password_hash: string | null }>(
    'SELECT "password_hash" FROM "user" WHERE "id" = $1',
    [userId],
  );
  return rows[0]?.password_hash ?? null;
};

export type CurrentPassword = {
  userId: number;
  // The caller's address, for the per-address bucket.
  ip: string;
  password: string;
  hash: string | null;
};

// The password asked for again before a sensitive change is a login attempt too, counted in the
// same buckets as /login_, so a stolen session cannot be used to guess the password past the
// login limits. A wrong (or missing) password answers 401.
export const checkCurrentPassword = async (
  throttle: LoginThrottle,
  check: CurrentPassword,
): Promise<void> => {
  const attempt = await throttle.begin(
    loginAccountKey(check.userId, ''),
    clientAddressKey(check.ip),
  );
  if (!(await verifyPassword(check.password, check.hash))) throw unauthorized('Invalid password');
  await attempt.succeeded();
};
