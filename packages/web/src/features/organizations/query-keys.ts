import { queryRoots } from '../../api/query-roots.js';

const organization = (id: number) => [...queryRoots.organizations, id] as const;

// Everything the organization screens read lives under the organizations root: a change to
// memberships, teams or invitations refreshes one organization (`organization(id)`) or all.
export const organizationKeys = {
  all: queryRoots.organizations,
  organization,
  list: (userId: number) => [...queryRoots.organizations, 'list', userId] as const,
  detail: (id: number) => [...organization(id), 'detail'] as const,
  administrators: (id: number, userId: number) => [...organization(id), 'access', userId] as const,
  ownMembership: (id: number, userId: number) =>
    [...organization(id), 'own-membership', userId] as const,
  members: (id: number, page: number, sort: string) =>
    [...organization(id), 'members', page, sort] as const,
  member: (id: number, membershipId: number) =>
    [...organization(id), 'member', membershipId] as const,
  invitations: (id: number) => [...organization(id), 'invitations'] as const,
  teams: (id: number) => [...organization(id), 'teams'] as const,
  team: (id: number, teamId: number) => [...organization(id), 'team', teamId] as const,
  fleets: (id: number) => [...organization(id), 'applications'] as const,
  usernames: (id: number) => [...organization(id), 'usernames'] as const,
  // The role catalogue never changes while the console runs (fetched once, never stale), so it
  // stays outside the organizations root: refreshing an organization does not ask for it again.
  roleCatalogue: ['role-catalogue'] as const,
};
