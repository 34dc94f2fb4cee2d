import type { ApplicationMembershipRole, FleetRole, OrganizationRole } from './roles.js';

// How roles are named to people (safe-operator is shown as Limited Operator,
// safe-developer as Limited Developer).
export const roleLabels: Record<FleetRole | OrganizationRole, string> = {
  administrator: 'Administrator',
  developer: 'Developer',
  'safe-developer': 'Limited Developer',
  operator: 'Operator',
  'safe-operator': 'Limited Operator',
  observer: 'Observer',
  member: 'Member',
};

const labelsByName: Readonly<Record<string, string | undefined>> = roleLabels;

export const roleLabel = (name: string): string => labelsByName[name] ?? name;

// What each fleet role may do, in a sentence, for the role pickers.
export const applicationRoleDescriptions: Record<ApplicationMembershipRole, string> = {
  observer: 'Read-only access to the fleet, its devices and releases',
  'safe-operator': 'Manage devices, but not delete or configure them',
  operator: 'Full access to devices: add, move, configure and delete them',
  'safe-developer':
    'Operator access plus code, releases and fleet variables; cannot delete devices',
  developer: 'Operator access plus code, releases, images and fleet variables',
};
