import { queryRoots } from '../../api/query-roots.js';
import type { AuditQuery, AuditSource } from './api.js';

export const auditLogKeys = {
  all: queryRoots.auditLog,
  entries: (source: AuditSource, query: AuditQuery) =>
    [...queryRoots.auditLog, 'entries', source.kind, source.id, query] as const,
};
