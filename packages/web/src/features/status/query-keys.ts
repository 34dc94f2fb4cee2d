import { queryRoots } from '../../api/query-roots.js';

export const statusKeys = {
  all: queryRoots.status,
  current: [...queryRoots.status, 'current'] as const,
  notices: [...queryRoots.status, 'notices'] as const,
};
