import { sessionKeys } from '../../api/session/query-keys.js';
import { queryRoots } from '../../api/query-roots.js';
import { profileKey } from '../../api/session/profile-query.js';

// The account's own data. The profile key is the shell's (one profile query for the whole
// console); whoami shares the account menu's key so they make one request.
export const preferenceKeys = {
  profile: profileKey,
  whoami: sessionKeys.whoami,
  pendingEmail: (userId: number) => [...queryRoots.session, 'pending-email', userId] as const,
  deletionPreview: [...queryRoots.session, 'account-deletion-preview'] as const,
  sshKeys: (userId: number | undefined) => [...queryRoots.sshKeys, userId] as const,
};
