import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { fleetKeys } from '../../fleet/query-keys.js';

// Where the user's roles on one fleet come from (the access-role dialog): a direct membership,
// the teams of theirs that reach the fleet, their role in the fleet's organization.
export const accessSourcesQuery = (
  client: FlotillaClient,
  applicationId: number,
  organizationId: number,
  userId: number,
) => ({
  queryKey: [...fleetKeys.detail(applicationId), 'access-sources', userId] as const,
  queryFn: async () => {
    const [direct, teams, organization] = await Promise.all([
      client.pine.get({
        resource: 'user_application_membership',
        options: {
          $select: ['id'],
          $filter: { user: userId, is_member_of__application: applicationId },
          $expand: { application_membership_role: { $select: ['name'] } },
        },
      }),
      client.pine.get({
        resource: 'team_application_access',
        options: {
          $select: ['id'],
          $filter: {
            grants_access_to__application: applicationId,
            team: {
              $any: {
                $alias: 't',
                $expr: {
                  t: {
                    team_membership: { $any: { $alias: 'tm', $expr: { tm: { user: userId } } } },
                  },
                },
              },
            },
          },
          $expand: {
            team: { $select: ['id', 'name'] },
            application_membership_role: { $select: ['name'] },
          },
        },
      }),
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
