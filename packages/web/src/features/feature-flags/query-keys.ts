import { queryRoots } from '../../api/query-roots.js';

export const featureFlagKeys = {
  all: queryRoots.featureFlags,
  admin: [...queryRoots.featureFlags, 'admin'] as const,
};
