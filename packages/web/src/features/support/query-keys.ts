import { queryRoots } from '../../api/query-roots.js';

export const supportKeys = {
  all: queryRoots.support,
  organizations: (userId: number) => [...queryRoots.support, 'organizations', userId] as const,
  access: (organizationId: number) => [...queryRoots.support, 'access', organizationId] as const,
  fields: (organizationId: number) => [...queryRoots.support, 'fields', organizationId] as const,
  desk: () => [...queryRoots.support, 'desk'] as const,
  tickets: (organizationId: number, page: number) =>
    [...queryRoots.support, 'tickets', organizationId, page] as const,
  ticket: (ticketId: number) => [...queryRoots.support, 'ticket', ticketId] as const,
  queue: (filter: object) => [...queryRoots.support, 'queue', filter] as const,
  agents: () => [...queryRoots.support, 'agents'] as const,
  docs: () => [...queryRoots.support, 'docs'] as const,
  adminFields: () => [...queryRoots.support, 'admin-fields'] as const,
};
