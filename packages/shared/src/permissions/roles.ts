// Role names exactly as stored.
export const fleetRoles = [
  'observer',
  'safe-operator',
  'operator',
  'safe-developer',
  'developer',
  'administrator',
] as const;
export type FleetRole = (typeof fleetRoles)[number];

// Roles a direct fleet membership or a team access can carry; "administrator" comes only from
// administering the organization that owns the fleet.
export const applicationMembershipRoles = [
  'observer',
  'safe-operator',
  'operator',
  'safe-developer',
  'developer',
] as const satisfies readonly FleetRole[];
export type ApplicationMembershipRole = (typeof applicationMembershipRoles)[number];

export const organizationRoles = ['administrator', 'member'] as const;
export type OrganizationRole = (typeof organizationRoles)[number];

export const platformRoles = ['support_agent', 'balena_admin'] as const;
export type PlatformRole = (typeof platformRoles)[number];

export const platformPermissionOf: Record<PlatformRole, string> = {
  support_agent: 'support.home',
  balena_admin: 'admin.home',
};

export type AnyRole = FleetRole | OrganizationRole | PlatformRole;

// Highest first.
export const rolePrecedence: readonly AnyRole[] = [
  'balena_admin',
  'support_agent',
  'administrator',
  'developer',
  'safe-developer',
  'operator',
  'safe-operator',
  'observer',
  'member',
];

export const defaultApplicationMembershipRole: ApplicationMembershipRole = 'developer';

export const highestRole = (roles: readonly AnyRole[]): AnyRole =>
  rolePrecedence.find((role) => roles.includes(role)) ?? 'member';

// "A user counts as observer only if they hold observer or member and none of developer,
// administrator, operator or support_agent."
export const isObserverOnly = (roles: readonly AnyRole[]): boolean =>
  (roles.includes('observer') || roles.includes('member')) &&
  !roles.some((role) => ['developer', 'administrator', 'operator', 'support_agent'].includes(role));
