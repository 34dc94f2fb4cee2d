import { queryRoots } from '../../api/query-roots.js';
import { fleetKeys } from '../../fleet/query-keys.js';

// A fleet's members, invitations and teams live under the fleet's detail key, so a fleet's
// refresh takes them along; the organization's team names live under the organizations root,
// refreshed with the organization's own screens.
export const fleetAccessKeys = {
  fleet: (fleetId: number) => fleetKeys.detail(fleetId),
  members: (fleetId: number, page: number, by: string, direction: string) =>
    [...fleetKeys.detail(fleetId), 'members', page, by, direction] as const,
  invitations: (fleetId: number) => [...fleetKeys.detail(fleetId), 'invitations'] as const,
  teams: (fleetId: number) => [...fleetKeys.detail(fleetId), 'teams'] as const,
  accessSources: (fleetId: number, userId: number) =>
    [...fleetKeys.detail(fleetId), 'access-sources', userId] as const,
  organizationTeamNames: (organizationId: number) =>
    [...queryRoots.organizations, organizationId, 'team-names'] as const,
};
