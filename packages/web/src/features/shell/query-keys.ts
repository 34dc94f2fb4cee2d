import { sessionKeys } from '../../api/session/query-keys.js';
import { queryRoots } from '../../api/query-roots.js';

// The shell's queries: the public GET /config (fetched once, shared by everything that reads it)
// and the signed-in user's whoami, under the session root.
export const shellKeys = {
  config: () => queryRoots.config,
  whoami: sessionKeys.whoami,
  // Derived in the browser from /config and the address: nothing is fetched.
  avatar: (template: string | null, email: string | null) =>
    [...queryRoots.config, 'avatar', template, email] as const,
  // Under the credits root: a purchase refreshes the notices strip.
  billingNotices: (userId: number) => [...queryRoots.credits, 'notices', userId] as const,
};
