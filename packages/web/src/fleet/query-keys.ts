import { queryRoots } from '../api/query-roots.js';

// Every fleet query lives under the fleets root, so one invalidation after a fleet write refreshes
// the fleet lists and the open fleet alike; a fleet's own queries live under its detail key.
export const fleetKeys = {
  all: queryRoots.fleets,
  detail: (fleetId: number) => [...queryRoots.fleets, 'detail', fleetId] as const,
  role: (fleetId: number, userId: number) =>
    [...queryRoots.fleets, 'detail', fleetId, 'role', userId] as const,
  list: (className: string, organizationId: number | undefined) =>
    [...queryRoots.fleets, 'list', className, organizationId] as const,
  statusCounts: (className: string, organizationId: number | undefined) =>
    [...queryRoots.fleets, 'list', className, organizationId, 'status-counts'] as const,
  administeredOrganizations: (userId: number | undefined) =>
    [...queryRoots.organizations, 'administered', userId] as const,
  deviceTypes: () => [...queryRoots.deviceTypes, 'all'] as const,
  // Under the rollouts root: a rollout decision refreshes it with the rollout's own queries.
  rollouts: (fleetId: number) => [...queryRoots.rollouts, 'fleet', fleetId] as const,
};
