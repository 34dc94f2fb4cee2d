import type { FakeData, FakeRow } from './fake-odata.js';
import { testUserId } from './fixtures.js';

// An organization "Acme" (id 3) for the fake API: the signed-in user (7, ada) with `ownRole`, bob
// (8) a member and in team "ops" (20), which has developer access to fleet 12; one pending
// invitation. Rows carry the navigations the organization screens filter and expand through.

export const acmeId = 3;
export const bobId = 8;
export const opsTeamId = 20;

const fleet = { id: 12, app_name: 'garden-sensors', is_of__class: 'fleet' };

const role = (name: string): FakeRow[] => [{ name }];
const inAcme = { __id: acmeId };

const opsTeam = { id: opsTeamId, name: 'ops', belongs_to__organization: inAcme };

type Person = {
  id: number;
  username: string;
  membershipId: number;
  role: string;
  teams: FakeRow[];
};

export const organizationWorld = (ownRole: 'administrator' | 'member' = 'administrator') => {
  const people: Person[] = [
    { id: testUserId, username: 'ada', membershipId: 1, role: ownRole, teams: [] },
    { id: bobId, username: 'bob', membershipId: 2, role: 'member', teams: [opsTeam] },
  ];
  const user = (person: Person): FakeRow => ({
    id: person.id,
    username: person.username,
    organization_membership: [
      {
        id: person.membershipId,
        is_member_of__organization: inAcme,
        organization_membership_role: role(person.role),
      },
    ],
    owns__saml_account: [],
    team_membership: person.teams.map((team, index) => ({
      id: 40 + index,
      is_member_of__team: [team],
    })),
    user_application_membership: [],
  });
  const memberships = people.map((person) => ({
    id: person.membershipId,
    created_at: '2026-01-01T00:00:00Z',
    user: [user(person)],
    is_member_of__organization: inAcme,
    organization_membership_role: role(person.role),
  }));
  const team: FakeRow = {
    ...opsTeam,
    created_at: '2026-01-02T00:00:00Z',
    team_membership: [
      {
        id: 40,
        created_at: '2026-01-02T00:00:00Z',
        user: [
          {
            id: bobId,
            username: 'bob',
            organization_membership: [{ id: 2, is_member_of__organization: inAcme }],
          },
        ],
      },
    ],
    team_application_access: [
      {
        id: 60,
        grants_access_to__application: [fleet],
        application_membership_role: role('developer'),
      },
    ],
  };
  const data: FakeData = {
    organization: [
      {
        id: acmeId,
        name: 'Acme',
        handle: 'acme',
        logo_image: null,
        created_at: '2026-01-01T00:00:00Z',
        application: [fleet],
        organization_membership: memberships,
        owns__team: [team],
        // What the billing notices strip reads when billing is on: in good standing.
        is_frozen: false,
        has_past_due_invoice_since__date: null,
        organization_credit_notification: [],
        owns__credit_bundle: [],
      },
    ],
    organization_membership: memberships,
    user: people.map(user),
    team: [team],
    application: [{ ...fleet, organization: inAcme }],
    invitee__is_invited_to__organization: [
      {
        id: 90,
        message: null,
        is_invited_to__organization: inAcme,
        invitee: [{ email: 'carol@example.com' }],
        organization_membership_role: role('member'),
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
  };
  return data;
};
