import type { Queryable } from '../../infra/db/database.js';

// Makes the user a member of the organization (role "member") unless they already belong to it:
// a fleet membership needs one (balena's rule), so adding someone to a fleet adds them to its
// organization in the same transaction.
export const ensureOrganizationMember = async (
  tx: Queryable,
  userId: number,
  organizationId: number,
): Promise<void> => {
  await tx.query(
    `INSERT INTO "organization_membership" ("user", "is_member_of__organization", "organization_membership_role")
     SELECT $1, $2, r."id" FROM "organization_membership_role" r WHERE r."name" = 'member'
     ON CONFLICT ("user", "is_member_of__organization") DO NOTHING`,
    [userId, organizationId],
  );
};
