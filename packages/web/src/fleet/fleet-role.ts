import {
  fleetRolePermissions,
  grants,
  organizationRolePermissions,
} from '@flotilla/shared/permissions/permissions';
import {
  type FleetRole,
  fleetRoles,
  type OrganizationRole,
  organizationRoles,
} from '@flotilla/shared/permissions/roles';

const isOrganizationRole = (name: string): name is OrganizationRole =>
  (organizationRoles as readonly string[]).includes(name);

// The texts of the console's permission answers. Which roles and permissions a user holds on a
// fleet is derived in shared/permissions/fleet-access.ts.

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

// Why a blocked action is blocked: the fleet roles lacking the permission,
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
