import { queryRoots } from '../../api/query-roots.js';

// Query keys of the alerts feature, under the alerts root.
export const alertKeys = {
  all: queryRoots.alerts,
  rules: (organizationId: number) => [...queryRoots.alerts, 'rules', organizationId] as const,
  fleets: (organizationId: number) => [...queryRoots.alerts, 'fleets', organizationId] as const,
  role: (organizationId: number, userId: number) =>
    [...queryRoots.alerts, 'role', organizationId, userId] as const,
};
