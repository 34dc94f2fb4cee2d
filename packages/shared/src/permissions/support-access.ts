import { platformRolePermissions } from './permissions.js';

// Support access: the members of a fleet or the owner of a device grant it until a date (the
// `is_accessible_by_support_until__date` of the fleet or device); a support agent sees the rows it
// reaches only until then. Platform administrators are not bound by it (they see a notice).

// How a granted date reaches a row a support agent holds a permission on:
// - device: the device's own grant or its fleet's;
// - fleet: the fleet's grant, or a grant on one of its devices (the agent reaches the device's fleet);
// - organization: any grant on one of the organization's fleets or their devices.
export type SupportReach = 'device' | 'fleet' | 'organization';

export const supportReachOf: Readonly<Record<string, SupportReach>> = {
  device: 'device',
  device_tag: 'device',
  application: 'fleet',
  organization: 'organization',
  organization_membership: 'organization',
  identity_provider_membership: 'organization',
};

// Whether a granted date still grants access at `now` (milliseconds).
export const isSupportAccessGranted = (
  until: string | null | undefined,
  now: number,
): until is string => typeof until === 'string' && new Date(until).getTime() > now;

// The notice a support agent or platform administrator sees on a page: no access, or access
// until the date (the console formats the date).
export type SupportAccessNotice = { kind: 'none' } | { kind: 'until'; until: Date };

export const supportAccessNotice = (
  until: string | null | undefined,
  now: number,
): SupportAccessNotice =>
  isSupportAccessGranted(until, now) ? { kind: 'until', until: new Date(until) } : { kind: 'none' };

// Support agents hold their permissions only where support access reaches: a permission of the
// support agent's table on a resource the grant does not reach is a mistake in the table.
export const supportAgentResourcesWithoutReach = (): string[] =>
  [
    ...new Set(
      platformRolePermissions.support_agent.map((permission) => permission.split('.')[1] ?? ''),
    ),
  ].filter((resource) => resource !== 'support_ticket' && !(resource in supportReachOf));
