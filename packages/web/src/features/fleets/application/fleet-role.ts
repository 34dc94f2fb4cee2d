import {
  fleetRolePermissions,
  grants,
  organizationRolePermissions,
  type Permission,
  platformRolePermissions,
} from '@flotilla/shared/permissions/permissions';
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
} from '@flotilla/shared/permissions/roles';

type RoleRow = { application_membership_role: { name: string }[] };

// What the role queries of useFleetRole return.
export type FleetAccessRows = {
  memberships: ({ id: number } & RoleRow)[];
  teamAccesses: RoleRow[];
  organizationMemberships: { organization_membership_role: { name: string }[] }[];
};

const isFleetRole = (name: string): name is FleetRole =>
  (fleetRoles as readonly string[]).includes(name);

const isOrganizationRole = (name: string): name is OrganizationRole =>
  (organizationRoles as readonly string[]).includes(name);

// Every role the user holds on the fleet, highest first: direct membership, team accesses, the
// organization role (administering the organization makes one administrator of its fleets) and
// the platform roles carried by the session.
export const fleetRolesOf = (
  rows: FleetAccessRows,
  sessionPermissions: readonly string[],
): AnyRole[] => {
  const held = new Set<AnyRole>();
  for (const row of [...rows.memberships, ...rows.teamAccesses]) {
    const name = row.application_membership_role[0]?.name;
    if (name !== undefined && isFleetRole(name)) held.add(name);
  }
  for (const row of rows.organizationMemberships) {
    const name = row.organization_membership_role[0]?.name;
    if (name !== undefined && isOrganizationRole(name)) held.add(name);
  }
  for (const role of platformRoles) {
    if (sessionPermissions.includes(platformPermissionOf[role])) held.add(role);
  }
  return rolePrecedence.filter((role) => held.has(role));
};

const isPlatformRole = (role: AnyRole): role is PlatformRole =>
  (platformRoles as readonly string[]).includes(role);

// The permissions the roles give on the fleet's rows, read from the shared tables.
export const fleetPermissionsOf = (roles: readonly AnyRole[]): Permission[] =>
  roles.flatMap((role): readonly Permission[] => {
    if (isPlatformRole(role)) return platformRolePermissions[role];
    // Organization administrators hold the fleet role "administrator" on the whole organization.
    if (role === 'administrator') return fleetRolePermissions.administrator;
    if (isFleetRole(role)) return fleetRolePermissions[role];
    return [];
  });

const roleNames: Record<FleetRole, string> = {
  administrator: 'administrators',
  developer: 'developers',
  'safe-developer': 'limited developers',
  operator: 'operators',
  'safe-operator': 'limited operators',
  observer: 'observers',
};

const listOf = (names: readonly string[]): string =>
  names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;

// Why a blocked action is blocked (seed 001 section 6): the fleet roles lacking the permission,
// or the generic text when no fleet role has it.
export const deniedReason = (resource: string, action: string): string => {
  const lacking = fleetRoles.filter(
    (role) => !grants(fleetRolePermissions[role], resource, action),
  );
  if (lacking.length === fleetRoles.length || lacking.length === 0)
    return 'You do not have the required permission';
  const label = listOf(lacking.map((role) => roleNames[role]));
  return `${label.charAt(0).toUpperCase()}${label.slice(1)} do not have permission to do this`;
};

// Whether an organization role may receive fleets (create applications in the organization).
export const organizationAcceptsFleets = (role: string): boolean =>
  isOrganizationRole(role) && grants(organizationRolePermissions[role], 'application', 'create');
