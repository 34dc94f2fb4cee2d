import { platformRolesOf } from '@flotilla/shared/permissions/fleet-access';
import {
  grants,
  organizationRolePermissions,
  platformRolePermissions,
} from '@flotilla/shared/permissions/permissions';
import { organizationRoles } from '@flotilla/shared/permissions/roles';
import type { Actor } from '../../infra/auth/actor.js';
import type { Queryable } from '../../infra/db/database.js';
import { forbidden, notFound } from '../../infra/errors/api-error.js';

export type SignedInUser = Extract<Actor, { kind: 'user' }>;

// Support agents and platform administrators work the queue and see every ticket: the platform
// roles that hold support_ticket "update" in the permission tables.
export const isSupportStaff = (actor: Actor): actor is SignedInUser =>
  actor.kind === 'user' &&
  platformRolesOf(actor.platformPermissions).some((role) =>
    grants(platformRolePermissions[role], 'support_ticket', 'update'),
  );

export const requireSupportStaff = (actor: Actor): SignedInUser => {
  if (!isSupportStaff(actor)) throw forbidden();
  return actor;
};

export const requireUser = (actor: Actor): SignedInUser => {
  if (actor.kind !== 'user') throw forbidden();
  return actor;
};

const isOrganizationRole = (value: string): value is (typeof organizationRoles)[number] =>
  organizationRoles.some((role) => role === value);

// The organization's tickets are read and opened by the organization roles that hold
// support_ticket "read" / "create" (every member); anyone else is told the organization does not
// exist, as the /v7 API would.
export const requireOrganizationMember = async (
  db: Queryable,
  actor: Actor,
  organizationId: number,
  action: 'read' | 'create' = 'read',
): Promise<SignedInUser> => {
  const user = requireUser(actor);
  const { rows } = await db.query<{ name: string }>(
    `SELECT r."name" FROM "organization_membership" m
       JOIN "organization_membership_role" r ON r."id" = m."organization_membership_role"
      WHERE m."user" = $1 AND m."is_member_of__organization" = $2`,
    [user.userId, organizationId],
  );
  const role = rows[0]?.name;
  if (
    role === undefined ||
    !isOrganizationRole(role) ||
    !grants(organizationRolePermissions[role], 'support_ticket', action)
  ) {
    throw notFound(`No organization ${organizationId}`);
  }
  return user;
};

// Whether the organization may open private support. Private support is for paid plans only; an
// installation that does not bill (FLOTILLA_BILLING off, the default) gives it to everyone. The
// plan gate plugs in here: with billing on, `paidPlanGate` answers whether the organization's plan
// includes private support (packages/shared/src/billing, once it exists); until then it has none.
export type PaidPlanGate = (organizationId: number) => Promise<boolean>;

export const noPaidPlans: PaidPlanGate = async () => false;

export const organizationMayOpenPrivateSupport = async (
  billingEnabled: boolean,
  organizationId: number,
  paidPlanGate: PaidPlanGate = noPaidPlans,
): Promise<boolean> => (billingEnabled ? paidPlanGate(organizationId) : true);
