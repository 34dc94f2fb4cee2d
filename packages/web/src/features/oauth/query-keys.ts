import { sessionKeys } from '../../api/session/query-keys.js';
import { queryRoots } from '../../api/query-roots.js';

// OAuth applications and the user's authorizations of them live under the OAuth root; whoami
// shares the account menu's key so the consent page asks once.
export const oauthKeys = {
  all: queryRoots.oauth,
  applications: [...queryRoots.oauth, 'applications'] as const,
  consentApplication: (clientId: string, userId: number | undefined) =>
    [...queryRoots.oauth, 'consent', clientId, userId] as const,
  authorizations: (userId: number | undefined) =>
    [...queryRoots.oauth, 'authorizations', userId] as const,
  whoami: sessionKeys.whoami,
};
