import { randomBytes } from 'node:crypto';
import { toBase62 } from '../../infra/auth/api-key-tokens.js';
import { hashPassword } from '../../infra/auth/passwords.js';
import type { Config } from '../../infra/config/config.js';
import type { Database, Queryable } from '../../infra/db/database.js';
import { createUserWithPersonalOrganization } from './create-user.js';

export const defaultAdminEmail = 'admin@flotilla.local';
const adminRole = 'balena_admin';
// Serialises servers starting together on one database, so only one creates the admin.
const firstAdminLockKey = 7_461_003;

export type FirstAdminOutcome =
  | { kind: 'existing' }
  | { kind: 'promoted'; email: string }
  | { kind: 'created'; email: string; username: string; generatedPassword: boolean };

// 22 base62 characters: 128 bits of entropy, within the 8-64 password length rule.
const generatePassword = (): string => toBase62(randomBytes(16), 22);

const hasAdmin = async (db: Queryable): Promise<boolean> =>
  (await db.query('SELECT 1 FROM "user_platform_role" WHERE "role" = $1 LIMIT 1', [adminRole])).rows
    .length > 0;

const grantAdmin = async (tx: Queryable, userId: number): Promise<void> => {
  await tx.query(
    `INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, $2) ON CONFLICT DO NOTHING`,
    [userId, adminRole],
  );
};

// At start-up: when no user holds admin.home, makes one from FLOTILLA_ADMIN_EMAIL and
// FLOTILLA_ADMIN_PASSWORD, or admin@flotilla.local with a generated password, and prints the
// credentials once. An existing user with that e-mail is promoted instead (password untouched).
export const ensureFirstAdmin = async (
  db: Database,
  config: Pick<Config, 'adminEmail' | 'adminPassword'>,
  print: (line: string) => void,
): Promise<FirstAdminOutcome> => {
  if (await hasAdmin(db)) return { kind: 'existing' };
  const email = config.adminEmail ?? defaultAdminEmail;
  const password = config.adminPassword ?? generatePassword();
  // Hashed before the transaction: scrypt is slow and must not hold the lock.
  const passwordHash = await hashPassword(password);
  const outcome = await db.transaction(async (tx): Promise<FirstAdminOutcome> => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [firstAdminLockKey]);
    if (await hasAdmin(tx)) return { kind: 'existing' };
    const { rows } = await tx.query<{ id: number }>(
      'SELECT "id" FROM "user" WHERE lower("email") = lower($1)',
      [email],
    );
    const existing = rows[0];
    if (existing) {
      await grantAdmin(tx, existing.id);
      return { kind: 'promoted', email };
    }
    const created = await createUserWithPersonalOrganization(tx, {
      email,
      passwordHash,
      isVerified: true,
    });
    await grantAdmin(tx, created.userId);
    return {
      kind: 'created',
      email,
      username: created.username,
      generatedPassword: config.adminPassword === undefined,
    };
  });
  if (outcome.kind === 'promoted') {
    print(`Platform administrator: existing user ${email} now holds admin.home`);
  } else if (outcome.kind === 'created') {
    print(`Platform administrator created: ${email} (username ${outcome.username})`);
    print(
      outcome.generatedPassword
        ? `Password: ${password}  (shown once; change it after signing in)`
        : 'Password: the value of FLOTILLA_ADMIN_PASSWORD',
    );
  }
  return outcome;
};
