import type { Session } from '@flotilla/sdk/auth';
import { platformRolesOf } from '@flotilla/shared/permissions/fleet-access';
import { grants, platformRolePermissions } from '@flotilla/shared/permissions/permissions';

// Support agents and platform administrators work the support queue: the platform roles that
// hold support_ticket "update" in the shared permission table (the server checks the same).
export const isSupportStaff = (session: Session | null): boolean =>
  session !== null &&
  platformRolesOf(session.permissions).some((role) =>
    grants(platformRolePermissions[role], 'support_ticket', 'update'),
  );
