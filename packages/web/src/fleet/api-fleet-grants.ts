import type { FlotillaClient } from '@flotilla/sdk/create-client';

// The two reads of where a user's roles on one fleet come from, shared by the user's own fleet
// role and the access-role dialog: their direct membership, and the accesses of their teams
// that reach the fleet (with each team's name).
export const readDirectFleetMemberships = (
  client: FlotillaClient,
  fleetId: number,
  userId: number,
) =>
  client.pine.get({
    resource: 'user_application_membership',
    options: {
      $select: ['id'],
      $filter: { user: userId, is_member_of__application: fleetId },
      $expand: { application_membership_role: { $select: ['name'] } },
    },
  });

export const readTeamFleetAccesses = (client: FlotillaClient, fleetId: number, userId: number) =>
  client.pine.get({
    resource: 'team_application_access',
    options: {
      $select: ['id'],
      $filter: {
        grants_access_to__application: fleetId,
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
  });
