import { queryRoots } from '../../api/query-roots.js';
import type { AuditQuery } from './api.js';

export const auditLogKeys = {
  all: queryRoots.auditLog,
  entries: (organizationId: number, query: AuditQuery) =>
    [...queryRoots.auditLog, 'entries', organizationId, query] as const,
};
