import { queryRoots } from '../../api/query-roots.js';

export const usageKeys = {
  all: queryRoots.usage,
  enabled: [...queryRoots.usage, 'enabled'] as const,
  summary: (days: number) => [...queryRoots.usage, days] as const,
};
