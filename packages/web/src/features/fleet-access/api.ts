import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { memberListPageSize } from '@flotilla/shared/constants/limits';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { useToasts } from '../../ui/toasts.js';
import { useRoleIds } from '../organizations/api-organizations.js';
import { type Invitation, inviteeKind } from '../organizations/InviteDialog.js';
import { readDirectFleetMemberships, readTeamFleetAccesses } from '../../fleet/api-fleet-grants.js';
import { fleetAccessKeys } from './query-keys.js';

// Members sort by username, or by whether they sign in with SAML (then by username).
export type FleetMemberSort = { by: 'username' | 'saml'; direction: 'asc' | 'desc' };

const orderOf = (sort: FleetMemberSort) =>
  sort.by === 'saml'
    ? [{ owns__saml_account: { $count: {} }, $dir: sort.direction }, { username: 'asc' as const }]
    : { username: sort.direction };

// One page of a fleet's members (paged on the server, so a large fleet loads a page at a time),
// paged over users so the server sorts by username; with their role on the fleet,
// their organization membership (the row links to the organization member page) and SAML flag.
const fleetMemberPageQuery = (
  client: FlotillaClient,
  fleetId: number,
  organizationId: number,
  page: number,
  sort: FleetMemberSort,
) => ({
  queryKey: fleetAccessKeys.members(fleetId, page, sort.by, sort.direction),
  queryFn: async () => {
    const $filter = {
      user_application_membership: {
        $any: { $alias: 'm', $expr: { m: { is_member_of__application: fleetId } } },
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
              $filter: { is_member_of__application: fleetId },
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
const fleetInvitationsQuery = (client: FlotillaClient, fleetId: number) => ({
  queryKey: fleetAccessKeys.invitations(fleetId),
  queryFn: () =>
    client.pine.get({
      resource: 'invitee__is_invited_to__application',
      options: {
        $select: ['id', 'message'],
        $filter: { is_invited_to__application: fleetId },
        $orderby: { id: 'desc' },
        $expand: {
          invitee: { $select: ['email'] },
          application_membership_role: { $select: ['name'] },
        },
      },
    }),
});

// The teams reaching the fleet, with their role.
const fleetTeamsQuery = (client: FlotillaClient, fleetId: number) => ({
  queryKey: fleetAccessKeys.teams(fleetId),
  queryFn: () =>
    client.pine.get({
      resource: 'team_application_access',
      options: {
        $select: ['id'],
        $filter: { grants_access_to__application: fleetId },
        $expand: {
          team: { $select: ['id', 'name'] },
          application_membership_role: { $select: ['name'] },
        },
      },
    }),
});

// The teams of the fleet's organization (for "add team to fleet").
const organizationTeamsQuery = (client: FlotillaClient, organizationId: number) => ({
  queryKey: fleetAccessKeys.organizationTeamNames(organizationId),
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

// Where the user's roles on one fleet come from (the access-role dialog): a direct membership,
// the teams of theirs that reach the fleet, their role in the fleet's organization.
const accessSourcesQuery = (
  client: FlotillaClient,
  fleetId: number,
  organizationId: number,
  userId: number,
) => ({
  queryKey: fleetAccessKeys.accessSources(fleetId, userId),
  queryFn: async () => {
    const [direct, teams, organization] = await Promise.all([
      readDirectFleetMemberships(client, fleetId, userId),
      readTeamFleetAccesses(client, fleetId, userId),
      client.pine.get({
        resource: 'organization_membership',
        options: {
          $select: ['id'],
          $filter: { user: userId, is_member_of__organization: organizationId },
          $expand: { organization_membership_role: { $select: ['name'] } },
        },
      }),
    ]);
    return {
      direct: direct.flatMap((row) => row.application_membership_role.map((role) => role.name)),
      teams: teams.flatMap((row) =>
        row.team.flatMap((team) =>
          row.application_membership_role.map((role) => ({
            id: team.id,
            name: team.name,
            role: role.name,
          })),
        ),
      ),
      organization: organization.flatMap((row) =>
        row.organization_membership_role.map((role) => role.name),
      ),
    };
  },
});

export const useFleetMemberPage = (
  fleetId: number,
  organizationId: number,
  page: number,
  sort: FleetMemberSort,
  enabled: boolean,
) => {
  const client = useClient();
  return useQuery({
    ...fleetMemberPageQuery(client, fleetId, organizationId, page, sort),
    enabled,
    ...polling(),
  });
};

export const useFleetInvitations = (fleetId: number, enabled: boolean) => {
  const client = useClient();
  return useQuery({ ...fleetInvitationsQuery(client, fleetId), enabled, ...polling() });
};

export const useFleetTeams = (fleetId: number, enabled: boolean) => {
  const client = useClient();
  return useQuery({ ...fleetTeamsQuery(client, fleetId), enabled, ...polling() });
};

export const useOrganizationTeamNames = (organizationId: number, enabled: boolean) => {
  const client = useClient();
  return useQuery({ ...organizationTeamsQuery(client, organizationId), enabled });
};

export const useAccessSources = (fleetId: number, organizationId: number, userId: number) => {
  const client = useClient();
  return useQuery(accessSourcesQuery(client, fleetId, organizationId, userId));
};

// Refreshes everything shown of one fleet (its members, invitations and teams with it).
export const useRefreshFleet = (fleetId: number) => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: fleetAccessKeys.fleet(fleetId) });
};

// The writes of the fleet access screens, each one request; the screens run them in their
// mutations.
const fleetAccessCalls = (client: FlotillaClient) => ({
  invite: (fleetId: number, invitee: string, roleId: number, message: string | null) =>
    client.pine.post({
      resource: 'invitee__is_invited_to__application',
      body: {
        invitee,
        is_invited_to__application: fleetId,
        application_membership_role: roleId,
        message,
      },
    }),
  addMember: (fleetId: number, username: string, roleId: number) =>
    client.pine.post({
      resource: 'user_application_membership',
      body: { username, is_member_of__application: fleetId, application_membership_role: roleId },
    }),
  setMemberRole: (membershipId: number, roleId: number) =>
    client.pine.patch({
      resource: 'user_application_membership',
      id: membershipId,
      body: { application_membership_role: roleId },
    }),
  removeMember: (membershipId: number) =>
    client.pine.delete({ resource: 'user_application_membership', id: membershipId }),
  revokeInvitation: (id: number) =>
    client.pine.delete({ resource: 'invitee__is_invited_to__application', id }),
  addTeam: (fleetId: number, teamId: number, roleId: number) =>
    client.pine.post({
      resource: 'team_application_access',
      body: {
        team: teamId,
        grants_access_to__application: fleetId,
        application_membership_role: roleId,
      },
    }),
  setTeamRole: (accessId: number, roleId: number) =>
    client.pine.patch({
      resource: 'team_application_access',
      id: accessId,
      body: { application_membership_role: roleId },
    }),
  removeTeam: (accessId: number) =>
    client.pine.delete({ resource: 'team_application_access', id: accessId }),
});

export type FleetAccessCalls = ReturnType<typeof fleetAccessCalls>;

export const useFleetAccessCalls = (): FleetAccessCalls => fleetAccessCalls(useClient());

// The access screens' writes, one mutation: the fleet is read again after each, and the page shows
// a failure above its tables (no toast as well).
export const useFleetAccessWrite = (fleetId: number) => {
  const refresh = useRefreshFleet(fleetId);
  return useMutation({
    mutationFn: (work: () => Promise<unknown>) => work(),
    onSettled: refresh,
    meta: { inlineError: true },
  });
};

// The id of a fleet role by name, for writes; throws while the catalogue is not loaded.
export const useFleetRoleId = () => {
  const roles = useRoleIds();
  return (role: string): number => {
    const id = roles.data?.application.get(role);
    if (id === undefined) throw new Error(`Role ${role} not found`);
    return id;
  };
};

// "Add member": a username becomes a membership at once, an e-mail address gets an invitation;
// either way the fleet is read again.
export const useAddFleetMember = (fleetId: number) => {
  const calls = useFleetAccessCalls();
  const toasts = useToasts();
  const refresh = useRefreshFleet(fleetId);
  const roleId = useFleetRoleId();
  return async ({ invitee, role, message }: Invitation) => {
    const trimmed = invitee.trim();
    if (inviteeKind(trimmed) === 'email') {
      await calls.invite(fleetId, trimmed, roleId(role), message === '' ? null : message);
      toasts.show('success', `Invitation sent to ${trimmed}`);
    } else {
      await calls.addMember(fleetId, trimmed, roleId(role));
      toasts.show('success', `${trimmed} added`);
    }
    await refresh();
  };
};
