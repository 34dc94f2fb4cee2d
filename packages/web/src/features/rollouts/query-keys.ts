import { queryRoots } from '../../api/query-roots.js';

export const rolloutKeys = {
  all: queryRoots.rollouts,
  fleet: (fleetId: number) => [...queryRoots.rollouts, 'fleet', fleetId] as const,
  rollout: (rolloutId: number) => [...queryRoots.rollouts, 'rollout', rolloutId] as const,
};
