import type { Queryable } from '../../infra/db/database.js';

// The user's stored consent to the application (table oauth_application_authorization, migration
// 0024): recorded on every allow, kept once; `created_at` is the first allow. Revoking (DELETE on
// /v7) removes it, and a trigger removes the user's unused codes for the application with it.
export const recordAuthorization = async (
  db: Queryable,
  grant: { applicationId: number; userId: number },
  now: Date,
): Promise<void> => {
  await db.query(
    `INSERT INTO "oauth_application_authorization"
       ("belongs_to__user", "is_for__oauth_application", "created_at")
     VALUES ($1, $2, $3)
     ON CONFLICT ("belongs_to__user", "is_for__oauth_application") DO NOTHING`,
    [grant.userId, grant.applicationId, now],
  );
};
