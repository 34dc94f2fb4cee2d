import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';

type MemberUser = {
  team_membership: { id: number; is_member_of__team: { id: number; name: string }[] }[];
  user_application_membership: {
    id: number;
    is_member_of__application: { id: number; app_name: string; is_of__class: ApplicationClass }[];
    application_membership_role: { name: string }[];
  }[];
};

// What the member page lists: their teams, their direct memberships of the section's fleets
// (apps, blocks), and the teams and fleets they are in already (left out of "add to").
export const memberDetailRows = (user: MemberUser, className: ApplicationClass | null) => {
  const teamMemberships = user.team_membership.flatMap((row) =>
    row.is_member_of__team.map((team) => ({ id: row.id, teamId: team.id, name: team.name })),
  );
  const fleetMemberships = user.user_application_membership.flatMap((row) =>
    row.is_member_of__application
      .filter((application) => application.is_of__class === className)
      .map((application) => ({
        id: row.id,
        fleetId: application.id,
        name: application.app_name,
        role: row.application_membership_role[0]?.name ?? 'observer',
      })),
  );
  const joinedTeams = new Set(teamMemberships.map((row) => row.teamId));
  const joinedFleets = new Set(
    user.user_application_membership.flatMap((row) =>
      row.is_member_of__application.map((a) => a.id),
    ),
  );
  return { teamMemberships, fleetMemberships, joinedTeams, joinedFleets };
};
