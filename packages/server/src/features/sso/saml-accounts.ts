import type { Queryable } from '../../infra/db/database.js';
import { createUserWithPersonalOrganization } from '../users/create-user.js';
import type { SamlIdentity } from './saml-assertion.js';

// What an accepted assertion leads to: a session for the user its account belongs to (created
// just in time when nobody has the e-mail), or, when a user with that e-mail exists but has no
// account at this provider, that user's consent to link it (the merge).
export type SignInOutcome = { kind: 'signon' | 'merge'; userId: number };

// A user who signs in through a provider joins every organization it serves, as a member, and
// the default team chosen for each; memberships they already have are left as they are.
export const joinProviderOrganizations = async (
  tx: Queryable,
  providerId: number,
  userId: number,
): Promise<void> => {
  await tx.query(
    `INSERT INTO "organization_membership" ("user", "is_member_of__organization", "organization_membership_role")
     SELECT $2, m."organization", r."id"
       FROM "identity_provider_membership" m, "organization_membership_role" r
      WHERE m."is_authorized_by__identity_provider" = $1 AND r."name" = 'member'
     ON CONFLICT ("user", "is_member_of__organization") DO NOTHING`,
    [providerId, userId],
  );
  await tx.query(
    `INSERT INTO "team_membership" ("user", "is_member_of__team")
     SELECT $2, m."grants_access_to__team" FROM "identity_provider_membership" m
      WHERE m."is_authorized_by__identity_provider" = $1 AND m."grants_access_to__team" IS NOT NULL
     ON CONFLICT ("user", "is_member_of__team") DO NOTHING`,
    [providerId, userId],
  );
};

export const linkSamlAccount = async (
  tx: Queryable,
  providerId: number,
  userId: number,
  identity: Pick<SamlIdentity, 'remoteId' | 'displayName'>,
): Promise<void> => {
  await tx.query(
    `INSERT INTO "saml_account" ("belongs_to__user", "was_generated_by__identity_provider", "remote_id", "display_name")
     VALUES ($1, $2, $3, $4)`,
    [userId, providerId, identity.remoteId, identity.displayName],
  );
  await joinProviderOrganizations(tx, providerId, userId);
};

export const resolveSignIn = async (
  tx: Queryable,
  providerId: number,
  identity: SamlIdentity,
): Promise<SignInOutcome> => {
  const { rows: accounts } = await tx.query<{ user: number }>(
    `UPDATE "saml_account" SET "display_name" = coalesce($3, "display_name")
      WHERE "was_generated_by__identity_provider" = $1 AND "remote_id" = $2
      RETURNING "belongs_to__user" AS "user"`,
    [providerId, identity.remoteId, identity.displayName],
  );
  const linked = accounts[0];
  if (linked) {
    await joinProviderOrganizations(tx, providerId, linked.user);
    return { kind: 'signon', userId: linked.user };
  }
  const { rows: sameEmail } = await tx.query<{ id: number }>(
    'SELECT "id" FROM "user" WHERE lower("email") = lower($1)',
    [identity.email],
  );
  const existing = sameEmail[0];
  if (existing) return { kind: 'merge', userId: existing.id };
  // The provider vouches for the address: the new account is verified and has no password.
  const created = await createUserWithPersonalOrganization(tx, {
    email: identity.email,
    passwordHash: null,
    isVerified: true,
  });
  await linkSamlAccount(tx, providerId, created.userId, identity);
  return { kind: 'signon', userId: created.userId };
};
