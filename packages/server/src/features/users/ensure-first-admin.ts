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
  | { kind: 'existing'; email: string }
  | { kind: 'promoted'; email: string }
  // generatedPassword: set when no FLOTILLA_ADMIN_PASSWORD was given (the start banner shows it).
  | { kind: 'created'; email: string; username: string; generatedPassword: string | undefined };

// 22 base62 characters: 128 bits of entropy, within the 8-64 password length rule.
const generatePassword = (): string => toBase62(randomBytes(16), 22);

// The e-mail (or, lacking one, the username) of the first administrator, if there is one.
const firstAdminEmail = async (db: Queryable): Promise<string | undefined> => {
  const { rows } = await db.query<{ email: string }>(
    `SELECT coalesce(u."email", u."username") AS "email" FROM "user_platform_role" r JOIN "user" u ON u."id" = r."user"
      WHERE r."role" = $1 ORDER BY u."id" LIMIT 1`,
    [adminRole],
  );
  return rows[0]?.email;
};

const grantAdmin = async (tx: Queryable, userId: number): Promise<void> => {
  await tx.query(
    `INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, $2) ON CONFLICT DO NOTHING`,
    [userId, adminRole],
  );
};

// At start-up: when no user holds admin.home, makes one from FLOTILLA_ADMIN_EMAIL and
// FLOTILLA_ADMIN_PASSWORD, or admin@flotilla.local with a generated password (returned for the
// start banner, never stored in clear). An existing user with that e-mail is promoted instead
// (password untouched).
export const ensureFirstAdmin = async (
  db: Database,
  config: Pick<Config, 'adminEmail' | 'adminPassword'>,
  print: (line: string) => void,
): Promise<FirstAdminOutcome> => {
  const existingAdmin = await firstAdminEmail(db);
  if (existingAdmin !== undefined) return { kind: 'existing', email: existingAdmin };
  const email = config.adminEmail ?? defaultAdminEmail;
  const password = config.adminPassword ?? generatePassword();
  // Hashed before the transaction: scrypt is slow and must not hold the lock.
  const passwordHash = await hashPassword(password);
  const outcome = await db.transaction(async (tx): Promise<FirstAdminOutcome> => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [firstAdminLockKey]);
    const concurrentAdmin = await firstAdminEmail(tx);
    if (concurrentAdmin !== undefined) return { kind: 'existing', email: concurrentAdmin };
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
      generatedPassword: config.adminPassword === undefined ? password : undefined,
    };
  });
  if (outcome.kind === 'promoted') {
    print(`Platform administrator: existing user ${email} now holds admin.home`);
  } else if (outcome.kind === 'created') {
    print(`Platform administrator created: ${email} (username ${outcome.username})`);
  }
  return outcome;
};
