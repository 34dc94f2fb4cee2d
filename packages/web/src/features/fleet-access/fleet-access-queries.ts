import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { memberListPageSize } from '@flotilla/shared/constants/limits';
import { fleetKeys } from '../../fleet/query-keys.js';

// Seed 001: sortable by username and by SAML-account presence (then by username).
export type FleetMemberSort = { by: 'username' | 'saml'; direction: 'asc' | 'desc' };

const orderOf = (sort: FleetMemberSort) =>
  sort.by === 'saml'
    ? [{ owns__saml_account: { $count: {} }, $dir: sort.direction }, { username: 'asc' as const }]
    : { username: sort.direction };

// One page of a fleet's members (seed 001 "Members table: server-side paging, sortable by
// username"), paged over users so the server sorts by username; with their role on the fleet,
// their organization membership (the row links to the organization member page) and SAML flag.
export const fleetMemberPageQuery = (
  client: FlotillaClient,
  applicationId: number,
  organizationId: number,
  page: number,
  sort: FleetMemberSort,
) => ({
  queryKey: [...fleetKeys.detail(applicationId), 'members', page, sort.by, sort.direction] as const,
  queryFn: async () => {
    const $filter = {
      user_application_membership: {
        $any: { $alias: 'm', $expr: { m: { is_member_of__application: applicationId } } },
      },
    };
    const [rows, count] = await Promise.all([
      client.pine.get({
        resource: 'user',
        options: {
          $select: ['id', 'username'],
          $filter,
          $top: memberListPageSize,
          $skip: page * memberListPageSize,
          $orderby: orderOf(sort),
          $expand: {
            user_application_membership: {
              $select: ['id'],
              $filter: { is_member_of__application: applicationId },
              $expand: { application_membership_role: { $select: ['name'] } },
            },
            organization_membership: {
              $select: ['id'],
              $filter: { is_member_of__organization: organizationId },
            },
            owns__saml_account: { $count: {} },
          },
        },
      }),
      client.pine.get({ resource: 'user', options: { $count: { $filter } } }),
    ]);
    return { rows, count };
  },
});

// The fleet's pending invitations.
export const fleetInvitationsQuery = (client: FlotillaClient, applicationId: number) => ({
  queryKey: [...fleetKeys.detail(applicationId), 'invitations'] as const,
  queryFn: () =>
    client.pine.get({
      resource: 'invitee__is_invited_to__application',
      options: {
        $select: ['id', 'message'],
        $filter: { is_invited_to__application: applicationId },
        $orderby: { id: 'desc' },
        $expand: {
          invitee: { $select: ['email'] },
          application_membership_role: { $select: ['name'] },
        },
      },
    }),
});

// The teams reaching the fleet, with their role.
export const fleetTeamsQuery = (client: FlotillaClient, applicationId: number) => ({
  queryKey: [...fleetKeys.detail(applicationId), 'teams'] as const,
  queryFn: () =>
    client.pine.get({
      resource: 'team_application_access',
      options: {
        $select: ['id'],
        $filter: { grants_access_to__application: applicationId },
        $expand: {
          team: { $select: ['id', 'name'] },
          application_membership_role: { $select: ['name'] },
        },
      },
    }),
});

// The teams of the fleet's organization (for "add team to fleet").
export const organizationTeamsQuery = (client: FlotillaClient, organizationId: number) => ({
  queryKey: ['organizations', organizationId, 'team-names'] as const,
  queryFn: () =>
    client.pine.get({
      resource: 'team',
      options: {
        $select: ['id', 'name'],
        $filter: { belongs_to__organization: organizationId },
        $orderby: { name: 'asc' },
      },
    }),
});
