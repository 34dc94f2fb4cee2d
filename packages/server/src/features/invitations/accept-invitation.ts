import type { InvitationClaims } from '@flotilla/shared/invitations/invitation-token';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, conflict } from '../../infra/errors/api-error.js';
import { ensureOrganizationMember } from '../memberships/organization-member.js';
import { invitationTableOf } from './invitation-kinds.js';
import { userIsInvitee } from './invitee.js';

type InvitationRow = { id: number; target: number; role: number; identifier: string };

export type AcceptedInvitation = { kind: InvitationClaims['kind']; id: number; name: string };

// Makes `userId` a member as a verified invitation says (inside the caller's transaction): of the
// organization with its role, or of the fleet with its role (and of the fleet's organization as a
// member, which a fleet membership needs). The invitation and any other pending invitation of the
// same person to the same place are used up. Answers in our words when the invitation is gone.
export const acceptInvitation = async (
  tx: Queryable,
  claims: InvitationClaims,
  userId: number,
): Promise<AcceptedInvitation> => {
  const table = invitationTableOf(claims.kind);
  const { rows } = await tx.query<InvitationRow>(
    `SELECT i."id", i."${table.targetColumn}" AS "target", i."${table.roleColumn}" AS "role",
            e."email" AS "identifier"
       FROM "${table.resource}" i JOIN "invitee" e ON e."id" = i."invitee"
      WHERE i."token_id" = $1 FOR UPDATE OF i`,
    [claims.tokenId],
  );
  const invitation = rows[0];
  if (!invitation) {
    const outcome = await tx.query<{ outcome: string }>(
      'SELECT "outcome" FROM "invitation_outcome" WHERE "token_id" = $1',
      [claims.tokenId],
    );
    switch (outcome.rows[0]?.outcome) {
      case 'accepted':
        throw conflict('This invitation has already been accepted');
      case 'revoked':
        throw badRequest('This invitation was revoked');
      default:
        throw badRequest(
          `This invitation is no longer valid: the ${table.noun} may have been deleted`,
        );
    }
  }
  const user = await tx.query(
    `SELECT 1 FROM "user" u WHERE u."id" = $1 AND ${userIsInvitee('u', '$2')}`,
    [userId, invitation.identifier],
  );
  if (user.rows.length === 0) {
    throw badRequest(
      'This invitation was sent to someone else: sign in with the account it was sent to',
    );
  }
  let organizationId = invitation.target;
  if (table.kind === 'organization') {
    await tx.query(
      `INSERT INTO "organization_membership" ("user", "is_member_of__organization", "organization_membership_role")
       VALUES ($1, $2, $3) ON CONFLICT ("user", "is_member_of__organization") DO NOTHING`,
      [userId, invitation.target, invitation.role],
    );
  } else {
    const fleet = await tx.query<{ organization: number }>(
      'SELECT "organization" FROM "application" WHERE "id" = $1',
      [invitation.target],
    );
    organizationId = fleet.rows[0]?.organization ?? 0;
    await ensureOrganizationMember(tx, userId, organizationId);
    await tx.query(
      `INSERT INTO "user_application_membership" ("user", "is_member_of__application", "application_membership_role")
       VALUES ($1, $2, $3) ON CONFLICT ("user", "is_member_of__application") DO NOTHING`,
      [userId, invitation.target, invitation.role],
    );
  }
  // Every pending invitation of this person to the same place is used up with this one.
  await tx.query(
    `WITH used AS (
       DELETE FROM "${table.resource}" i USING "invitee" e, "user" u
        WHERE e."id" = i."invitee" AND i."${table.targetColumn}" = $2 AND u."id" = $3
          AND (i."id" = $1 OR ${userIsInvitee('u', 'e."email"')})
       RETURNING i."token_id"
     )
     INSERT INTO "invitation_outcome" ("token_id", "outcome")
     SELECT "token_id", 'accepted' FROM used ON CONFLICT ("token_id") DO NOTHING`,
    [invitation.id, invitation.target, userId],
  );
  const name = await tx.query<{ name: string }>(
    `SELECT "${table.targetName}" AS "name" FROM "${table.targetTable}" WHERE "id" = $1`,
    [invitation.target],
  );
  return {
    kind: claims.kind,
    id: table.kind === 'organization' ? organizationId : invitation.target,
    name: name.rows[0]?.name ?? claims.name,
  };
};
