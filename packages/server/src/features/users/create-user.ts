import { usernameLength, usernameProblem } from '@flotilla/shared/users/username';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, conflict } from '../../infra/errors/api-error.js';

export type NewUser = {
  email: string;
  // Already hashed (infra/auth/passwords.ts): hashing is slow and must not hold a transaction.
  // Null for an account that signs in only through a linked provider (features/social-auth) or
  // its identity provider (features/sso).
  passwordHash: string | null;
  // Chosen by the caller; when absent one is derived from the e-mail's local part.
  username?: string;
  hasDisabledNewsletter?: boolean;
  isVerified?: boolean;
  // Self-registered while e-mail verification is required.
  mustBeVerified?: boolean;
};

export type CreatedUser = {
  userId: number;
  actorId: number;
  username: string;
  email: string;
  jwtSecret: string;
  organizationId: number;
};

const maxSuffixAttempts = 100;

// "Jane.Doe+fleet@example.com" -> "jane_doe_fleet": lowercase letters, digits and single
// underscores, so the name is also a valid organization handle.
export const usernameBaseFromEmail = (email: string): string => {
  const local = email.split('@')[0] ?? '';
  const cleaned = local
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, usernameLength.max);
  return cleaned.length > 0 ? cleaned : 'user';
};

// A username is free when no user has it and no organization uses it as handle (the personal
// organization takes the username as its handle).
const isFree = async (tx: Queryable, name: string): Promise<boolean> => {
  const { rows } = await tx.query(
    `SELECT 1 FROM "user" WHERE lower("username") = lower($1)
     UNION ALL
     SELECT 1 FROM "organization" WHERE lower("handle") = lower($1)
     LIMIT 1`,
    [name],
  );
  return rows.length === 0;
};

// The base itself when it is valid and free, else base_1, base_2... (a base shorter than the
// minimum, such as "x" from x@example.com, starts at x_1).
const uniqueUsername = async (tx: Queryable, base: string): Promise<string> => {
  for (let suffix = 0; suffix <= maxSuffixAttempts; suffix += 1) {
    const tail = suffix === 0 ? '' : `_${suffix}`;
    const candidate = base.slice(0, usernameLength.max - tail.length) + tail;
    if (usernameProblem(candidate) === undefined && (await isFree(tx, candidate))) return candidate;
  }
  throw conflict('"username" must be unique.');
};

const selectAdministratorRole = async (tx: Queryable): Promise<number | undefined> => {
  const { rows } = await tx.query<{ id: number }>(
    `SELECT "id" FROM "organization_membership_role" WHERE "name" = 'administrator'`,
  );
  return rows[0]?.id;
};

const administratorRoleId = async (tx: Queryable): Promise<number> => {
  const existing = await selectAdministratorRole(tx);
  if (existing !== undefined) return existing;
  // The role catalogue is seeded by migrations; inserting here keeps a bare schema usable.
  await tx.query(
    `INSERT INTO "organization_membership_role" ("name") VALUES ('administrator')
     ON CONFLICT ("name") DO NOTHING`,
  );
  const id = await selectAdministratorRole(tx);
  if (id === undefined) throw new Error('organization_membership_role "administrator" is missing');
  return id;
};

// Creates the user (and, through the column default, its actor), a personal organization named
// after the user, and makes the user its administrator. Runs inside the caller's transaction.
export const createUserWithPersonalOrganization = async (
  tx: Queryable,
  input: NewUser,
): Promise<CreatedUser> => {
  const { rows: taken } = await tx.query('SELECT 1 FROM "user" WHERE lower("email") = lower($1)', [
    input.email,
  ]);
  if (taken.length > 0) throw conflict('"email" must be unique.');
  let username: string;
  if (input.username !== undefined) {
    const problem = usernameProblem(input.username);
    if (problem !== undefined) throw badRequest(`username: ${problem}`);
    if (!(await isFree(tx, input.username))) throw conflict('"username" must be unique.');
    username = input.username;
  } else {
    username = await uniqueUsername(tx, usernameBaseFromEmail(input.email));
  }
  const { rows: organizations } = await tx.query<{ id: number }>(
    `INSERT INTO "organization" ("name", "handle") VALUES ($1, $2) RETURNING "id"`,
    [username, username.toLowerCase()],
  );
  const organizationId = organizations[0]?.id;
  if (organizationId === undefined) throw new Error('organization insert returned no row');
  const { rows: users } = await tx.query<{ id: number; actor: number; jwt_secret: string }>(
    `INSERT INTO "user" ("username", "email", "password_hash", "has_disabled_newsletter",
                         "is_verified", "has_legacy_link_to__organization", "must_be_verified")
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     RETURNING "id", "actor", "jwt_secret"`,
    [
      username,
      input.email,
      input.passwordHash,
      input.hasDisabledNewsletter ?? false,
      input.isVerified ?? false,
      organizationId,
      input.mustBeVerified ?? false,
    ],
  );
  const user = users[0];
  if (!user) throw new Error('user insert returned no row');
  await tx.query(
    `INSERT INTO "organization_membership" ("user", "is_member_of__organization", "organization_membership_role")
     VALUES ($1, $2, $3)`,
    [user.id, organizationId, await administratorRoleId(tx)],
  );
  return {
    userId: user.id,
    actorId: user.actor,
    username,
    email: input.email,
    jwtSecret: user.jwt_secret,
    organizationId,
  };
};
