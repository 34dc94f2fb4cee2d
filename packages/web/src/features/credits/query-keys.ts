import { queryRoots } from '../../api/query-roots.js';

export const creditKeys = {
  all: queryRoots.credits,
  summary: (organizationId: number) => [...queryRoots.credits, 'summary', organizationId] as const,
  bundles: (organizationId: number) => [...queryRoots.credits, 'bundles', organizationId] as const,
  notification: (organizationId: number) =>
    [...queryRoots.credits, 'notification', organizationId] as const,
};
