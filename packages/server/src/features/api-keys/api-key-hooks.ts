import { requireUserSessionMay } from '../../infra/auth/session-rules.js';
import type { HookRegistry, WriteContext } from '../../infra/odata/hooks.js';

const mayManage = async (write: WriteContext): Promise<void> => {
  requireUserSessionMay(write.actor, 'manage-api-keys');
};

// /v7 writes of api_key (renaming, revoking): only kinds of session that may manage keys
// (shared/auth/session-kinds.ts). An OAuth application or an administrator signed in as the user
// may not revoke the user's keys any more than mint them.
export const registerApiKeyHooks = (hooks: HookRegistry): void => {
  hooks.add('api_key', {
    beforeCreate: (write) => mayManage(write),
    beforeUpdate: (write) => mayManage(write),
    beforeDelete: (write) => mayManage(write),
  });
};
