import { queryRoots } from '../../api/query-roots.js';

// API keys, a fleet's provisioning keys and the user's own, live under the API keys root.
export const apiKeyKeys = {
  all: queryRoots.apiKeys,
  fleet: (fleetId: number) => [...queryRoots.apiKeys, 'fleet', fleetId] as const,
  user: (actorId: number | undefined) => [...queryRoots.apiKeys, 'user', actorId] as const,
  // Whether the user signs in through SAML: it decides whether they may create keys.
  samlAccount: (userId: number | undefined) =>
    [...queryRoots.apiKeys, 'saml-account', userId] as const,
};
