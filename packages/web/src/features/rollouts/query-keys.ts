import { queryRoots } from '../../api/query-roots.js';

export const rolloutKeys = {
  all: queryRoots.rollouts,
  rollout: (rolloutId: number) => [...queryRoots.rollouts, 'rollout', rolloutId] as const,
};
