import { z } from 'zod';

// How long the audit log keeps its records, and how many it deletes per statement when pruning
// (small batches keep each delete's locks and WAL short on a busy installation).
export type AuditLogConfig = { retentionDays: number; pruneBatch: number };

// The environment variables, spread into the server's one configuration schema.
export const auditLogEnv = {
  FLOTILLA_AUDIT_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
};

type AuditLogValues = { FLOTILLA_AUDIT_LOG_RETENTION_DAYS: number };

export const auditLogConfigOf = (values: AuditLogValues): AuditLogConfig => ({
  retentionDays: values.FLOTILLA_AUDIT_LOG_RETENTION_DAYS,
  pruneBatch: 5000,
});
