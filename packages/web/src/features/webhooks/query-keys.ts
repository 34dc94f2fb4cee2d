import { queryRoots } from '../../api/query-roots.js';

export const webhookKeys = {
  all: queryRoots.webhooks,
  eventTypes: () => [...queryRoots.webhooks, 'event-types'] as const,
  endpoints: (organizationId: number) =>
    [...queryRoots.webhooks, 'endpoints', organizationId] as const,
  fleets: (organizationId: number) => [...queryRoots.webhooks, 'fleets', organizationId] as const,
  deliveries: (organizationId: number, endpointId: number) =>
    [...queryRoots.webhooks, 'deliveries', organizationId, endpointId] as const,
};
