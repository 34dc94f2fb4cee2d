import type { HookRegistry } from '../../infra/odata/hooks.js';
import { recordWriteChanges } from './audit-writer.js';

// Every /v7 write is recorded in the audit log, in its own transaction.
export const registerAuditLogHooks = (hooks: HookRegistry): void => {
  hooks.observe(recordWriteChanges);
};
