import { fleetRolePermissions, type Permission, platformRolePermissions } from './permissions.js';
import {
  type AnyRole,
  type FleetRole,
  fleetRoles,
  type OrganizationRole,
  organizationRoles,
  platformPermissionOf,
  type PlatformRole,
  platformRoles,
  rolePrecedence,
} from './roles.js';

// "Which roles and permissions does this user have on this fleet", derived once: the console
// calls these functions; the server's `fleet_access` view (migrations) computes the same fleet
// roles in SQL, and fleet-access.int.test.ts (server) checks both agree on generated memberships.

// A user's memberships that can give a role on a fleet (any subset, e.g. those of one fleet).
export type UserMemberships = {
  // Direct fleet memberships (user_application_membership).
  fleetMemberships: readonly { fleetId: number; role: string }[];
  // Accesses granted to teams the user belongs to (team_application_access).
  teamAccesses: readonly { fleetId: number; role: string }[];
  // Organization memberships (organization_membership).
  organizationMemberships: readonly { organizationId: number; role: string }[];
};

export type FleetOfOrganization = { id: number; organizationId: number };

const isFleetRole = (name: string): name is FleetRole =>
  (fleetRoles as readonly string[]).includes(name);

const isOrganizationRole = (name: string): name is OrganizationRole =>
  (organizationRoles as readonly string[]).includes(name);

const isPlatformRole = (role: AnyRole): role is PlatformRole =>
  (platformRoles as readonly string[]).includes(role);

const highestFirst = <T extends AnyRole>(held: ReadonlySet<T>): T[] =>
  rolePrecedence.filter((role): role is T => held.has(role as T));

// The roles one user holds that concern one fleet, by name: those of the direct memberships and
// team accesses on the fleet, and those of the memberships of the fleet's organization.
export type FleetGrants = {
  fleetRoles: readonly string[];
  organizationRoles: readonly string[];
};

// Picks, from a user's memberships, those that concern the fleet.
export const grantsOnFleet = (
  memberships: UserMemberships,
  fleet: FleetOfOrganization,
): FleetGrants => ({
  fleetRoles: [...memberships.fleetMemberships, ...memberships.teamAccesses]
    .filter((grant) => grant.fleetId === fleet.id)
    .map((grant) => grant.role),
  organizationRoles: memberships.organizationMemberships
    .filter((membership) => membership.organizationId === fleet.organizationId)
    .map((membership) => membership.role),
});

// The fleet roles the grants give, highest first: administering the fleet's organization makes
// one administrator of it; direct memberships and team accesses give their role.
export const fleetRolesFrom = (grants: FleetGrants): FleetRole[] => {
  const held = new Set<FleetRole>(grants.fleetRoles.filter(isFleetRole));
  if (grants.organizationRoles.includes('administrator')) held.add('administrator');
  return highestFirst(held);
};

// The fleet roles the user holds on the fleet: exactly the rows of the `fleet_access` view for
// (user, fleet).
export const fleetRolesOn = (
  memberships: UserMemberships,
  fleet: FleetOfOrganization,
): FleetRole[] => fleetRolesFrom(grantsOnFleet(memberships, fleet));

// The platform roles a session's permissions carry (support agent, admin).
export const platformRolesOf = (sessionPermissions: readonly string[]): PlatformRole[] =>
  platformRoles.filter((role) => sessionPermissions.includes(platformPermissionOf[role]));

// Every role the user holds on the fleet, highest first: the fleet roles, the organization role
// in the fleet's organization ("member" counts for the observer-only rule) and the platform roles.
// A support agent holds its role on the fleet only while the fleet grants support access
// (`supportGranted`, see support-access.ts): without it the agent gets nothing, as on the server.
export const rolesOnFleet = (
  grants: FleetGrants,
  sessionPermissions: readonly string[],
  supportGranted = false,
): AnyRole[] =>
  highestFirst(
    new Set<AnyRole>([
      ...fleetRolesFrom(grants),
      ...grants.organizationRoles.filter(isOrganizationRole),
      ...platformRolesOf(sessionPermissions).filter(
        (role) => role !== 'support_agent' || supportGranted,
      ),
    ]),
  );

// Whether any of the roles comes from a membership (of the fleet, a team or the organization)
// rather than from a platform role: staff who are members of what they open are at home there.
export const holdsMembershipRole = (roles: readonly AnyRole[]): boolean =>
  roles.some((role) => !isPlatformRole(role));

// The permissions the roles give on the fleet's rows, read from the shared tables. The
// organization role "administrator" is the fleet role "administrator" on the organization's
// fleets; "member" gives nothing on fleet rows.
export const fleetPermissionsOf = (roles: readonly AnyRole[]): Permission[] =>
  roles.flatMap((role): readonly Permission[] => {
    if (isPlatformRole(role)) return platformRolePermissions[role];
    if (isFleetRole(role)) return fleetRolePermissions[role];
    return [];
  });
