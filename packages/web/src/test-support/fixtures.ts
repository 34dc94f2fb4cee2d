import type { FakeRow } from './fake-odata.js';

// Fixture rows for the fake API, with the fields and navigations the console's role queries
// filter on (the signed-in user is user 7 unless a test says otherwise).

export const testUserId = 7;

// A direct fleet membership of the user.
export const fleetMember = (role: string, fleetId = 12, id = 1): FakeRow => ({
  id,
  user: { __id: testUserId },
  is_member_of__application: { __id: fleetId },
  application_membership_role: [{ name: role }],
});

// A team's access to a fleet, the user being a member of the team.
export const teamAccess = (role: string, fleetId = 12, id = 1): FakeRow => ({
  id,
  grants_access_to__application: { __id: fleetId },
  team: [{ id: 1, name: 'ops', team_membership: [{ id: 1, user: { __id: testUserId } }] }],
  application_membership_role: [{ name: role }],
});

// The user's membership of an organization owning the given fleets.
export const organizationMember = (
  role: string,
  organizationId = 3,
  fleetIds: readonly number[] = [12],
  id = 1,
): FakeRow => ({
  id,
  user: { __id: testUserId },
  is_member_of__organization: [
    {
      id: organizationId,
      application: fleetIds.map((fleetId) => ({ id: fleetId })),
    },
  ],
  organization_membership_role: [{ name: role }],
});

// Devices under an application row, for the device counts (only the status is read).
export const devicesWithStatus = (...statuses: string[]): FakeRow[] =>
  statuses.map((overall_status, index) => ({ id: 500 + index, overall_status }));
