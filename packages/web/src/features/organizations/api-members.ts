import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { memberListPageSize } from '@flotilla/shared/constants/limits';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { organizationKeys } from './query-keys.js';

export type MemberSort = 'username asc' | 'username desc';

// One page of an organization's members, server-side ($skip and $top, with a count, so a large
// organization loads a page at a time), ordered by username, with their membership and role, their teams in this organization
// and whether they sign in with SAML. Paged over users, so the server sorts by username.
export const memberPageQuery = (
  client: FlotillaClient,
  organizationId: number,
  page: number,
  sort: MemberSort,
) => ({
  queryKey: organizationKeys.members(organizationId, page, sort),
  queryFn: async () => {
    const $filter = {
      organization_membership: {
        $any: { $alias: 'm', $expr: { m: { is_member_of__organization: organizationId } } },
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
          $orderby: { username: sort === 'username asc' ? 'asc' : 'desc' },
          $expand: {
            organization_membership: {
              $select: ['id'],
              $filter: { is_member_of__organization: organizationId },
              $expand: { organization_membership_role: { $select: ['name'] } },
            },
            owns__saml_account: { $count: {} },
            team_membership: {
              $select: ['id'],
              $filter: {
                is_member_of__team: {
                  $any: { $alias: 't', $expr: { t: { belongs_to__organization: organizationId } } },
                },
              },
              $expand: { is_member_of__team: { $select: ['id', 'name'] } },
            },
          },
        },
      }),
      client.pine.get({ resource: 'user', options: { $count: { $filter } } }),
    ]);
    return { rows, count };
  },
});

// The organization's pending invitations (administrators read them).
export const invitationListQuery = (client: FlotillaClient, organizationId: number) => ({
  queryKey: organizationKeys.invitations(organizationId),
  queryFn: () =>
    client.pine.get({
      resource: 'invitee__is_invited_to__organization',
      options: {
        $select: ['id', 'message'],
        $filter: { is_invited_to__organization: organizationId },
        $orderby: { id: 'desc' },
        $expand: {
          invitee: { $select: ['email'] },
          organization_membership_role: { $select: ['name'] },
        },
      },
    }),
});

// One organization membership with the member's teams and direct fleet memberships there.
export const memberDetailQuery = (
  client: FlotillaClient,
  organizationId: number,
  membershipId: number,
) => ({
  queryKey: organizationKeys.member(organizationId, membershipId),
  queryFn: async () =>
    (
      await client.pine.get({
        resource: 'organization_membership',
        options: {
          $select: ['id', 'created_at'],
          $filter: { id: membershipId, is_member_of__organization: organizationId },
          $expand: {
            organization_membership_role: { $select: ['name'] },
            user: {
              $select: ['id', 'username'],
              $expand: {
                owns__saml_account: { $count: {} },
                team_membership: {
                  $select: ['id'],
                  $filter: {
                    is_member_of__team: {
                      $any: {
                        $alias: 't',
                        $expr: { t: { belongs_to__organization: organizationId } },
                      },
                    },
                  },
                  $expand: { is_member_of__team: { $select: ['id', 'name'] } },
                },
                user_application_membership: {
                  $select: ['id'],
                  $filter: {
                    is_member_of__application: {
                      $any: { $alias: 'a', $expr: { a: { organization: organizationId } } },
                    },
                  },
                  $expand: {
                    is_member_of__application: { $select: ['id', 'app_name', 'is_of__class'] },
                    application_membership_role: { $select: ['name'] },
                  },
                },
              },
            },
          },
        },
      })
    )[0] ?? null,
});

export const useMemberPage = (organizationId: number, page: number, sort: MemberSort) => {
  const client = useClient();
  return useQuery({ ...memberPageQuery(client, organizationId, page, sort), ...polling() });
};

export const useInvitations = (organizationId: number, enabled: boolean) => {
  const client = useClient();
  return useQuery({ ...invitationListQuery(client, organizationId), enabled, ...polling() });
};

export const useMemberDetail = (organizationId: number, membershipId: number | null) => {
  const client = useClient();
  return useQuery({
    ...memberDetailQuery(client, organizationId, membershipId ?? 0),
    enabled: membershipId !== null,
    ...polling(),
  });
};

// The writes of the member screens, each one request; the screens run them in their mutations.
const memberCalls = (client: FlotillaClient) => ({
  setOrganizationRole: (membershipId: number, roleId: number) =>
    client.pine.patch({
      resource: 'organization_membership',
      id: membershipId,
      body: { organization_membership_role: roleId },
    }),
  removeMembership: (membershipId: number) =>
    client.pine.delete({ resource: 'organization_membership', id: membershipId }),
  revokeInvitation: (id: number) =>
    client.pine.delete({ resource: 'invitee__is_invited_to__organization', id }),
  invite: (
    organizationId: number,
    invitation: { invitee: string; roleId: number; message: string | null },
  ) =>
    client.pine.post({
      resource: 'invitee__is_invited_to__organization',
      body: {
        invitee: invitation.invitee,
        is_invited_to__organization: organizationId,
        organization_membership_role: invitation.roleId,
        message: invitation.message,
      },
    }),
  removeTeamMembership: (id: number) => client.pine.delete({ resource: 'team_membership', id }),
  addToTeam: (username: string, teamId: number) =>
    client.pine.post({
      resource: 'team_membership',
      body: { username, is_member_of__team: teamId },
    }),
  setFleetRole: (id: number, roleId: number) =>
    client.pine.patch({
      resource: 'user_application_membership',
      id,
      body: { application_membership_role: roleId },
    }),
  removeFleetMembership: (id: number) =>
    client.pine.delete({ resource: 'user_application_membership', id }),
  addToFleet: (username: string, fleetId: number, roleId: number) =>
    client.pine.post({
      resource: 'user_application_membership',
      body: {
        username,
        is_member_of__application: fleetId,
        application_membership_role: roleId,
      },
    }),
});

export type MemberCalls = ReturnType<typeof memberCalls>;

export const useMemberCalls = (): MemberCalls => memberCalls(useClient());

// Refreshes everything shown of one organization.
export const useRefreshOrganization = (organizationId: number) => {
  const queryClient = useQueryClient();
  return () =>
    queryClient.invalidateQueries({ queryKey: organizationKeys.organization(organizationId) });
};

// Refreshes every organization screen (the list too: after leaving one).
export const useRefreshOrganizations = () => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: organizationKeys.all });
};
