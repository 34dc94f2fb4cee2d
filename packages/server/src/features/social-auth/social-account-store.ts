import type { SocialProvider } from '@flotilla/shared/social-auth/social-providers';
import type { Queryable } from '../../infra/db/database.js';

export type AccountByEmail = { id: number; hasPassword: boolean };

// The user a provider's account is linked to.
export const findLinkedUser = async (
  db: Queryable,
  provider: SocialProvider,
  remoteId: string,
): Promise<number | undefined> => {
  const { rows } = await db.query<{ user: number }>(
    `SELECT "belongs_to__user" AS "user" FROM "social_service_account"
     WHERE "provider" = $1 AND "remote_id" = $2`,
    [provider, remoteId],
  );
  return rows[0]?.user;
};

// The account holding an e-mail address (unique ignoring case, user_email_key).
export const findAccountByEmail = async (
  db: Queryable,
  email: string,
): Promise<AccountByEmail | undefined> => {
  const { rows } = await db.query<{ id: number; has_password: boolean }>(
    `SELECT "id", "password_hash" IS NOT NULL AS "has_password" FROM "user"
     WHERE lower("email") = lower($1)`,
    [email.trim()],
  );
  const row = rows[0];
  return row && { id: row.id, hasPassword: row.has_password };
};

export const userHasProviderLink = async (
  db: Queryable,
  userId: number,
  provider: SocialProvider,
): Promise<boolean> => {
  const { rows } = await db.query(
    `SELECT 1 FROM "social_service_account" WHERE "belongs_to__user" = $1 AND "provider" = $2`,
    [userId, provider],
  );
  return rows.length > 0;
};

export const insertLink = async (
  db: Queryable,
  link: { userId: number; provider: SocialProvider; remoteId: string; displayName: string },
): Promise<void> => {
  await db.query(
    `INSERT INTO "social_service_account" ("belongs_to__user", "provider", "remote_id", "display_name")
     VALUES ($1, $2, $3, $4)`,
    [link.userId, link.provider, link.remoteId, link.displayName],
  );
};

// The provider's name for the account changes (a GitHub login renamed): the list shows the new one.
export const refreshDisplayName = async (
  db: Queryable,
  provider: SocialProvider,
  remoteId: string,
  displayName: string,
): Promise<void> => {
  await db.query(
    `UPDATE "social_service_account" SET "display_name" = $3
     WHERE "provider" = $1 AND "remote_id" = $2 AND "display_name" IS DISTINCT FROM $3`,
    [provider, remoteId, displayName],
  );
};

// The users among `ids`' owners who would have no way in left once those links are gone: no
// password, no SAML account and no other linked account. Locks those users, so two unlinks at
// once cannot each leave the other's link as the last.
export const ownersLeftWithoutWayIn = async (
  db: Queryable,
  ids: readonly number[],
): Promise<number[]> => {
  const { rows } = await db.query<{ id: number }>(
    `SELECT u."id" FROM "user" u
     WHERE u."id" IN (SELECT "belongs_to__user" FROM "social_service_account" WHERE "id" = ANY($1::int[]))
       AND u."password_hash" IS NULL
       AND NOT EXISTS (SELECT 1 FROM "saml_account" s WHERE s."belongs_to__user" = u."id")
       AND NOT EXISTS (
         SELECT 1 FROM "social_service_account" o
         WHERE o."belongs_to__user" = u."id" AND NOT (o."id" = ANY($1::int[])))
     FOR UPDATE OF u`,
    [ids],
  );
  return rows.map((row) => row.id);
};
