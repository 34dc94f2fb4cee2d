import { queryRoots } from '../../api/query-roots.js';

// The account's linked sign-in accounts live with the session's data: signing out drops them.
export const socialAuthKeys = {
  all: [...queryRoots.session, 'social-accounts'] as const,
  accounts: (userId: number | undefined) =>
    [...queryRoots.session, 'social-accounts', userId] as const,
};
