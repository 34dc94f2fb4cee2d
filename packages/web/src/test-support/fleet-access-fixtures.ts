import type { FakeData, FakeRow } from './fake-odata.js';
import { fleetMember, testUserId } from './fixtures.js';
import { fleetRow, fleetFixture } from './fleet-helpers.js';

// Fleet 12 of organization 3 for the fake API: the signed-in user (7, ada) a direct member with
// `role`; bob (8) a developer who signs in with SAML; team "ops" (20) reaches the fleet as
// developer, team "field" (21) does not; one pending invitation.

const inFleet = { __id: 12 };
const inAcme = { __id: 3 };
const role = (name: string): FakeRow[] => [{ name }];

const member = (
  id: number,
  username: string,
  membershipId: number,
  name: string,
  saml: boolean,
) => ({
  id,
  username,
  user_application_membership: [
    {
      id: membershipId,
      is_member_of__application: inFleet,
      application_membership_role: role(name),
    },
  ],
  organization_membership: [{ id: membershipId + 100, is_member_of__organization: inAcme }],
  owns__saml_account: saml ? [{ id: 1 }] : [],
});

// `ownRole` null: the user holds no role on the fleet (yet sees its page, e.g. through a stale link).
export const fleetAccessWorld = (ownRole: string | null = 'administrator'): FakeData => ({
  application: [fleetRow(fleetFixture())],
  user_application_membership: ownRole === null ? [] : [fleetMember(ownRole)],
  organization_membership: [],
  user: [
    ...(ownRole === null ? [] : [member(testUserId, 'ada', 1, ownRole, false)]),
    member(8, 'bob', 2, 'developer', true),
  ],
  team_application_access: [
    {
      id: 60,
      grants_access_to__application: inFleet,
      team: [{ id: 20, name: 'ops', team_membership: [] }],
      application_membership_role: role('developer'),
    },
  ],
  team: [
    { id: 20, name: 'ops', belongs_to__organization: inAcme },
    { id: 21, name: 'field', belongs_to__organization: inAcme },
  ],
  invitee__is_invited_to__application: [
    {
      id: 90,
      message: null,
      is_invited_to__application: inFleet,
      invitee: [{ email: 'carol@example.com' }],
      application_membership_role: role('observer'),
    },
  ],
  organization_membership_role: [
    { id: 1, name: 'administrator' },
    { id: 2, name: 'member' },
  ],
  application_membership_role: [
    'observer',
    'safe-operator',
    'operator',
    'safe-developer',
    'developer',
  ].map((name, index) => ({ id: 10 + index, name })),
});
