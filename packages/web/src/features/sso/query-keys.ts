import { queryRoots } from '../../api/query-roots.js';

// Identity providers the user administers, one provider, its SAML account count, and the
// organizations (with their teams) the user may attach.
export const ssoKeys = {
  all: queryRoots.identityProviders,
  providers: (userId: number | undefined) =>
    [...queryRoots.identityProviders, 'list', userId] as const,
  provider: (id: number) => [...queryRoots.identityProviders, 'provider', id] as const,
  accountCount: (id: number) => [...queryRoots.identityProviders, 'accounts', id] as const,
  administered: (userId: number | undefined) =>
    [...queryRoots.identityProviders, 'administered', userId] as const,
};
