import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { organizationKey } from './organization-queries.js';

// The organization's teams with their member and fleet-access counts.
export const teamListQuery = (client: FlotillaClient, organizationId: number) => ({
  queryKey: [...organizationKey(organizationId), 'teams'] as const,
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
  queryKey: [...organizationKey(organizationId), 'team', teamId] as const,
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
  queryKey: [...organizationKey(organizationId), 'applications'] as const,
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
  queryKey: [...organizationKey(organizationId), 'usernames'] as const,
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
