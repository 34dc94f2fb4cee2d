import { queryRoots } from '../query-roots.js';

// Everything the console caches about the signed-in session lives under the session root: the
// boot (configuration and whoami before the first screen), whoami and the user's own profile.
export const sessionKeys = {
  all: queryRoots.session,
  boot: [...queryRoots.session, 'boot'] as const,
  whoami: (userId: number | undefined) => [...queryRoots.session, 'whoami', userId] as const,
  profile: (userId: number | undefined) => [...queryRoots.session, 'profile', userId] as const,
};
