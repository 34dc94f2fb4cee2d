import { sessionKeys } from '../../api/session/query-keys.js';
import { queryRoots } from '../../api/query-roots.js';

// The administrator's user list lives under the platform-admin root; whoami shares the account
// menu's key so the login-as banner and the menu ask once.
export const platformAdminKeys = {
  all: queryRoots.platformAdmin,
  users: (search: string, page: number) =>
    [...queryRoots.platformAdmin, 'users', search, page] as const,
  whoami: sessionKeys.whoami,
};
