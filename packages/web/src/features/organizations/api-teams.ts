import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { organizationKeys } from './query-keys.js';

// The organization's teams with their member and fleet-access counts.
export const teamListQuery = (client: FlotillaClient, organizationId: number) => ({
  queryKey: organizationKeys.teams(organizationId),
  queryFn: () =>
    client.pine.get({
      resource: 'team',
      options: {
        $select: ['id', 'name', 'created_at'],
        $filter: { belongs_to__organization: organizationId },
        $orderby: { name: 'asc' },
        $expand: { team_membership: { $count: {} }, team_application_access: { $count: {} } },
      },
    }),
});

// One team with its members and fleet accesses.
export const teamDetailQuery = (
  client: FlotillaClient,
  organizationId: number,
  teamId: number,
) => ({
  queryKey: organizationKeys.team(organizationId, teamId),
  queryFn: async () =>
    (
      await client.pine.get({
        resource: 'team',
        options: {
          $select: ['id', 'name', 'created_at'],
          $filter: { id: teamId, belongs_to__organization: organizationId },
          $expand: {
            team_membership: {
              $select: ['id', 'created_at'],
              $expand: {
                user: {
                  $select: ['id', 'username'],
                  $expand: {
                    organization_membership: {
                      $select: ['id'],
                      $filter: { is_member_of__organization: organizationId },
                    },
                  },
                },
              },
            },
            team_application_access: {
              $select: ['id'],
              $expand: {
                grants_access_to__application: { $select: ['id', 'app_name', 'is_of__class'] },
                application_membership_role: { $select: ['name'] },
              },
            },
          },
        },
      })
    )[0] ?? null,
});

// The organization's fleets, apps and blocks (for "add fleet to team").
export const organizationFleetsQuery = (client: FlotillaClient, organizationId: number) => ({
  queryKey: organizationKeys.fleets(organizationId),
  queryFn: () =>
    client.pine.get({
      resource: 'application',
      options: {
        $select: ['id', 'app_name', 'is_of__class'],
        $filter: { organization: organizationId },
        $orderby: { app_name: 'asc' },
      },
    }),
});

// Every member of the organization by username (for "add member to team", 300 px lists).
export const organizationUsersQuery = (client: FlotillaClient, organizationId: number) => ({
  queryKey: organizationKeys.usernames(organizationId),
  queryFn: () =>
    client.pine.get({
      resource: 'user',
      options: {
        $select: ['id', 'username'],
        $filter: {
          organization_membership: {
            $any: { $alias: 'm', $expr: { m: { is_member_of__organization: organizationId } } },
          },
        },
        $orderby: { username: 'asc' },
      },
    }),
});

// The team list polls while it is shown; pickers that only choose a team do not (`poll: false`).
export const useTeams = (
  organizationId: number,
  { enabled = true, poll = false }: { enabled?: boolean; poll?: boolean } = {},
) => {
  const client = useClient();
  return useQuery({
    ...teamListQuery(client, organizationId),
    enabled,
    ...(poll ? polling() : {}),
  });
};

export const useTeamDetail = (organizationId: number, teamId: number | null) => {
  const client = useClient();
  return useQuery({
    ...teamDetailQuery(client, organizationId, teamId ?? 0),
    enabled: teamId !== null,
    ...polling(),
  });
};

export const useOrganizationFleets = (organizationId: number, enabled = true) => {
  const client = useClient();
  return useQuery({ ...organizationFleetsQuery(client, organizationId), enabled });
};

export const useOrganizationUsers = (organizationId: number, enabled: boolean) => {
  const client = useClient();
  return useQuery({ ...organizationUsersQuery(client, organizationId), enabled });
};

// The writes of the team screens, each one request; the screens run them in their mutations.
const teamCalls = (client: FlotillaClient) => ({
  createTeam: (organizationId: number, name: string) =>
    client.pine.post({
      resource: 'team',
      body: { name, belongs_to__organization: organizationId },
    }),
  renameTeam: (teamId: number, name: string) =>
    client.pine.patch({ resource: 'team', id: teamId, body: { name } }),
  // balena-sdk's team.remove: DELETE /v7/team(id).
  deleteTeam: (teamId: number) => client.pine.delete({ resource: 'team', id: teamId }),
  addMember: (teamId: number, username: string) =>
    client.pine.post({
      resource: 'team_membership',
      body: { username, is_member_of__team: teamId },
    }),
  removeMembers: (membershipIds: readonly number[]) =>
    client.pine.delete({
      resource: 'team_membership',
      options: { $filter: { id: { $in: [...membershipIds] } } },
    }),
  grantFleet: (teamId: number, fleetId: number, roleId: number) =>
    client.pine.post({
      resource: 'team_application_access',
      body: {
        team: teamId,
        grants_access_to__application: fleetId,
        application_membership_role: roleId,
      },
    }),
  setAccessRole: (accessId: number, roleId: number) =>
    client.pine.patch({
      resource: 'team_application_access',
      id: accessId,
      body: { application_membership_role: roleId },
    }),
  revokeFleet: (teamId: number, fleetId: number) =>
    client.pine.delete({
      resource: 'team_application_access',
      options: { $filter: { team: teamId, grants_access_to__application: fleetId } },
    }),
});

export type TeamCalls = ReturnType<typeof teamCalls>;

export const useTeamCalls = (): TeamCalls => teamCalls(useClient());
