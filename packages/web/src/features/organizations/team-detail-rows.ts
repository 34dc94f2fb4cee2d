import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';

type TeamDetail = {
  team_membership: {
    id: number;
    user: { id: number; username: string; organization_membership: { id: number }[] }[];
  }[];
  team_application_access: {
    id: number;
    grants_access_to__application: {
      id: number;
      app_name: string;
      is_of__class: ApplicationClass;
    }[];
    application_membership_role: { name: string }[];
  }[];
};

// What the team page lists: its members, its accesses to the section's fleets (apps, blocks), and
// the members and fleets it has already (left out of "add").
export const teamDetailRows = (detail: TeamDetail, className: ApplicationClass | null) => {
  const members = detail.team_membership.map((membership) => ({
    id: membership.id,
    userId: membership.user[0]?.id ?? 0,
    username: membership.user[0]?.username ?? '',
    organizationMembershipId: membership.user[0]?.organization_membership[0]?.id ?? null,
  }));
  const accesses = detail.team_application_access.flatMap((row) =>
    row.grants_access_to__application
      .filter((application) => application.is_of__class === className)
      .map((application) => ({
        id: row.id,
        fleetId: application.id,
        name: application.app_name,
        role: row.application_membership_role[0]?.name ?? 'observer',
      })),
  );
  const memberIds = new Set(members.map((member) => member.userId));
  const accessIds = new Set(
    detail.team_application_access.flatMap((row) =>
      row.grants_access_to__application.map((a) => a.id),
    ),
  );
  return { members, accesses, memberIds, accessIds };
};
