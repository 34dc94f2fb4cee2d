import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { memberListPageSize } from '@flotilla/shared/constants/limits';
import { roleChangeConcurrency } from '@flotilla/shared/constants/limits';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { runWithConcurrency } from '../../ui/run-with-concurrency.js';
import { useToasts } from '../../ui/toasts.js';
import { useNavigate } from 'react-router';
import { useRoleIds } from './api-organizations.js';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { organizationKeys } from './query-keys.js';
import { countFeatureUse } from '../../api/feature-use.js';

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

// Role changes run one at a time, in one mutation scope, so two changes cannot cross each other;
// each change sets the role of several members, a few requests at a time.
export const useChangeMemberRoles = (organizationId: number) => {
  const calls = useMemberCalls();
  const roles = useRoleIds();
  const refresh = useRefreshOrganization(organizationId);
  return useMutation({
    scope: { id: `organization-${organizationId}-roles` },
    mutationFn: async ({ ids, role }: { ids: readonly number[]; role: string }) => {
      const roleId = roles.data?.organization.get(role);
      if (roleId === undefined) throw new Error(`Role ${role} not found`);
      const outcomes = await runWithConcurrency(ids, roleChangeConcurrency, (id) =>
        calls.setOrganizationRole(id, roleId),
      );
      const failed = outcomes.find((outcome) => !outcome.ok);
      if (failed && !failed.ok) throw failed.error;
    },
    onSettled: refresh,
  });
};

export const useRevokeInvitation = (organizationId: number) => {
  const calls = useMemberCalls();
  const toasts = useToasts();
  const refresh = useRefreshOrganization(organizationId);
  return useMutation({
    mutationFn: (id: number) => calls.revokeInvitation(id),
    onSuccess: () => {
      toasts.show('success', 'Invitation revoked');
      return refresh();
    },
  });
};

// "Invite member": the dialog waits for it and shows its failure.
export const useInviteMember = (organizationId: number) => {
  const calls = useMemberCalls();
  const roles = useRoleIds();
  const toasts = useToasts();
  const refresh = useRefreshOrganization(organizationId);
  return async (invitation: { invitee: string; role: string; message: string }) => {
    const roleId = roles.data?.organization.get(invitation.role);
    await calls.invite(organizationId, {
      invitee: invitation.invitee,
      roleId: roleId ?? 0,
      message: invitation.message === '' ? null : invitation.message,
    });
    countFeatureUse('invite-member');
    toasts.show('success', `Invitation sent to ${invitation.invitee}`);
    await refresh();
  };
};

// Removing members (or leaving: `leaves` says whether the user removes themself), ten requests
// at a time. After it every organization screen is read again, and one who left goes to /orgs; a
// failure refreshes the organization and shows in the dialog.
export const useRemoveMembers = (
  organizationId: number,
  { leaves, onRemoved }: { leaves: (ids: readonly number[]) => boolean; onRemoved: () => void },
) => {
  const calls = useMemberCalls();
  const toasts = useToasts();
  const navigate = useNavigate();
  const refresh = useRefreshOrganization(organizationId);
  const refreshAll = useRefreshOrganizations();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async (ids: readonly number[]) => {
      const outcomes = await runWithConcurrency(ids, 10, (id) => calls.removeMembership(id));
      const failed = outcomes.find((outcome) => !outcome.ok);
      if (failed && !failed.ok) throw failed.error;
    },
    onSuccess: async (_result, ids) => {
      const left = leaves(ids);
      toasts.show('success', left ? 'You left the organization' : 'Member removed', {
        afterNavigation: left,
      });
      onRemoved();
      await refreshAll();
      if (left) void navigate('/orgs');
    },
    onError: refresh,
  });
};

// The member and team screens' writes, one mutation: the organization is read again after each,
// and the page shows a failure above its tables (no toast as well).
export const useOrganizationWrite = (organizationId: number) => {
  const refresh = useRefreshOrganization(organizationId);
  return useMutation({
    mutationFn: (work: () => Promise<unknown>) => work(),
    onSettled: refresh,
    meta: { inlineError: true },
  });
};
