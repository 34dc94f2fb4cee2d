import { randomBytes } from 'node:crypto';
import { emailProblem, passwordProblem } from '@flotilla/shared/auth/credentials';
import { toBase62 } from '../../infra/auth/api-key-tokens.js';
import { hashPassword } from '../../infra/auth/passwords.js';
import type { Database, Queryable } from '../../infra/db/database.js';
import { removeTwoFactor, rotateSessions } from '../two-factor/two-factor-store.js';
import { createUserWithPersonalOrganization } from './create-user.js';

// Recovery from the server's machine, for an operator locked out of the console: reset a
// user's password (every session of theirs ends), or make a platform administrator. Whoever can
// run this already holds the database, so it asks for no other credential.

const adminRole = 'balena_admin';

export type RecoveryResult = {
  username: string;
  email: string | null;
  // The password to hand over, when this command chose it (shown once, never stored in clear).
  generatedPassword: string | undefined;
  isPlatformAdministrator: boolean;
  // What was done, in the operator's words.
  summary: string;
};

// 22 base62 characters: 128 bits of entropy, within the password length rule.
const generatePassword = (): string => toBase62(randomBytes(16), 22);

const checkedPassword = (password: string | undefined): string | undefined => {
  if (password === undefined) return undefined;
  const problem = passwordProblem(password);
  if (problem !== undefined) throw new Error(`The password is refused: ${problem}`);
  return password;
};

type UserRow = { id: number; username: string; email: string | null; admin: boolean };

const findUser = async (db: Queryable, who: string): Promise<UserRow | undefined> => {
  const { rows } = await db.query<UserRow>(
    `SELECT u."id", u."username", u."email",
            EXISTS (SELECT 1 FROM "user_platform_role" r WHERE r."user" = u."id" AND r."role" = $2)
              AS "admin"
       FROM "user" u WHERE lower(u."email") = lower($1) OR lower(u."username") = lower($1)
      ORDER BY (lower(u."email") = lower($1)) DESC LIMIT 1`,
    [who, adminRole],
  );
  return rows[0];
};

const grantAdmin = async (db: Queryable, userId: number): Promise<void> => {
  await db.query(
    `INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, $2) ON CONFLICT DO NOTHING`,
    [userId, adminRole],
  );
};

// Sets a new password on the user named by e-mail or username and ends all their sessions;
// with clearTwoFactor their two-factor secret and recovery codes go too (a lost phone).
export const resetUserPassword = async (
  db: Database,
  options: { who: string; password?: string; clearTwoFactor: boolean },
): Promise<RecoveryResult> => {
  const password = checkedPassword(options.password) ?? generatePassword();
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const user = await findUser(tx, options.who);
    if (user === undefined) throw new Error(`No user has the e-mail or username ${options.who}`);
    await tx.query('UPDATE "user" SET "password_hash" = $2 WHERE "id" = $1', [
      user.id,
      passwordHash,
    ]);
    await rotateSessions(tx, user.id);
    if (options.clearTwoFactor) await removeTwoFactor(tx, user.id);
    return {
      username: user.username,
      email: user.email,
      generatedPassword: options.password === undefined ? password : undefined,
      isPlatformAdministrator: user.admin,
      summary:
        `New password set for ${user.username}; every session of theirs has ended` +
        (options.clearTwoFactor ? ', and two-factor authentication is off' : ''),
    };
  });
};

// Makes the user with this e-mail a platform administrator, creating them (verified, with a
// password) when there is none; an existing user's password stays unless one is given.
export const createPlatformAdministrator = async (
  db: Database,
  options: { email: string; password?: string },
): Promise<RecoveryResult> => {
  const emailIssue = emailProblem(options.email);
  if (emailIssue !== undefined) throw new Error(`The e-mail is refused: ${emailIssue}`);
  const given = checkedPassword(options.password);
  const existing = await findUser(db, options.email);
  const password = existing === undefined ? (given ?? generatePassword()) : given;
  const passwordHash = password === undefined ? undefined : await hashPassword(password);
  return db.transaction(async (tx) => {
    const user = await findUser(tx, options.email);
    if (user !== undefined) {
      await grantAdmin(tx, user.id);
      if (passwordHash !== undefined) {
        await tx.query('UPDATE "user" SET "password_hash" = $2 WHERE "id" = $1', [
          user.id,
          passwordHash,
        ]);
        await rotateSessions(tx, user.id);
      }
      return {
        username: user.username,
        email: user.email,
        generatedPassword: undefined,
        isPlatformAdministrator: true,
        summary: user.admin
          ? `${user.username} already was a platform administrator`
          : `${user.username} is now a platform administrator`,
      };
    }
    if (passwordHash === undefined || password === undefined) {
      throw new Error('A new administrator needs a password');
    }
    const created = await createUserWithPersonalOrganization(tx, {
      email: options.email,
      passwordHash,
      isVerified: true,
    });
    await grantAdmin(tx, created.userId);
    return {
      username: created.username,
      email: options.email,
      generatedPassword: given === undefined ? password : undefined,
      isPlatformAdministrator: true,
      summary: `Platform administrator ${created.username} created`,
    };
  });
};
