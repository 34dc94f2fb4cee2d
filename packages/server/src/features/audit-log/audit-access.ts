import { platformRolesOf } from '@flotilla/shared/permissions/fleet-access';
import {
  grants,
  organizationRolePermissions,
  platformRolePermissions,
} from '@flotilla/shared/permissions/permissions';
import { organizationRoles } from '@flotilla/shared/permissions/roles';
import { userMayOnFleet } from '../api-keys/api-key-access.js';
import type { Actor } from '../../infra/auth/actor.js';
import type { Queryable } from '../../infra/db/database.js';
import { forbidden, notFound } from '../../infra/errors/api-error.js';

const resource = 'audit_log_entry';

// Platform roles that read every organization's log (the permission tables' audit_log_entry "read").
export const readsWholeAuditLog = (actor: Actor): boolean =>
  actor.kind === 'user' &&
  platformRolesOf(actor.platformPermissions).some((role) =>
    grants(platformRolePermissions[role], resource, 'read'),
  );

export const requirePlatformAuditReader = (actor: Actor): void => {
  if (!readsWholeAuditLog(actor)) throw forbidden();
};

const isOrganizationRole = (value: string): value is (typeof organizationRoles)[number] =>
  organizationRoles.some((role) => role === value);

// An organization's log is read by the organization roles holding audit_log_entry "read"
// (administrators) and by the platform roles that read the whole log; anyone else is told the
// organization does not exist, as the /v7 API would.
export const requireOrganizationAuditReader = async (
  db: Queryable,
  actor: Actor,
  organizationId: number,
): Promise<void> => {
  if (actor.kind !== 'user') throw forbidden();
  if (readsWholeAuditLog(actor)) return;
  const { rows } = await db.query<{ name: string }>(
    `SELECT r."name" FROM "organization_membership" m
       JOIN "organization_membership_role" r ON r."id" = m."organization_membership_role"
      WHERE m."user" = $1 AND m."is_member_of__organization" = $2`,
    [actor.userId, organizationId],
  );
  const role = rows[0]?.name;
  if (
    role === undefined ||
    !isOrganizationRole(role) ||
    !grants(organizationRolePermissions[role], resource, 'read')
  ) {
    throw notFound(`No organization ${organizationId}`);
  }
};

// A fleet's history is read by the fleet roles holding audit_log_entry "read" (administrators,
// which every organization administrator is on its fleets) and the platform's readers; to anyone
// else the fleet does not exist.
export const requireFleetAuditReader = async (
  db: Queryable,
  actor: Actor,
  fleetId: number,
): Promise<void> => {
  if (actor.kind !== 'user') throw forbidden();
  if (readsWholeAuditLog(actor)) return;
  if (!(await userMayOnFleet(db, actor.userId, fleetId, resource, 'read'))) {
    throw notFound(`No fleet ${fleetId}`);
  }
};
