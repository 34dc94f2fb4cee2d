import {
  fleetRolePermissions,
  grants,
  organizationRolePermissions,
  type Permission,
  platformRolePermissions,
} from '@flotilla/shared/permissions/permissions';
import {
  type ApplicationMembershipRole,
  type FleetRole,
  type OrganizationRole,
  rolePrecedence,
} from '@flotilla/shared/permissions/roles';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// Who may write membership, team and team-access rows,
// over organization and fleet roles: the oracle reads the shared permission tables and the one
// rule beyond them (a team access never exceeds its granter's role on the fleet); the engine
// must agree for every caller and write.

type Caller = {
  organizationRole?: OrganizationRole;
  fleetRole?: Exclude<FleetRole, 'administrator'>;
  platformAdmin?: boolean;
};

const callers: Record<string, Caller> = {
  admin: { organizationRole: 'administrator' },
  member: { organizationRole: 'member' },
  developer: { organizationRole: 'member', fleetRole: 'developer' },
  limitedDeveloper: { organizationRole: 'member', fleetRole: 'safe-developer' },
  operator: { organizationRole: 'member', fleetRole: 'operator' },
  observer: { organizationRole: 'member', fleetRole: 'observer' },
  outsider: {},
  platformAdmin: { platformAdmin: true },
};

const fleetRolesOf = (caller: Caller): FleetRole[] => [
  ...(caller.organizationRole === 'administrator' ? (['administrator'] as const) : []),
  ...(caller.fleetRole ? [caller.fleetRole] : []),
];

const held = (caller: Caller): Permission[] => [
  ...(caller.organizationRole ? organizationRolePermissions[caller.organizationRole] : []),
  ...fleetRolesOf(caller).flatMap((role) => fleetRolePermissions[role]),
  ...(caller.platformAdmin ? platformRolePermissions.balena_admin : []),
];

const rank = (role: string): number => rolePrecedence.findIndex((name) => name === role);

// A team access may be written by holders of the permission whose own role is at least the
// roles involved (administrators, and platform administrators, any).
const mayGrant = (caller: Caller, roles: readonly ApplicationMembershipRole[]): boolean => {
  if (caller.platformAdmin) return true;
  const own = fleetRolesOf(caller).map(rank);
  if (own.length === 0) return false;
  return roles.every((role) => rank(role) >= Math.min(...own));
};

type Write = {
  name: string;
  permitted: (caller: Caller) => boolean;
  run: (as: string) => Promise<{ status: number; text: string }>;
  // Whether the write took effect, read from the database.
  done: () => Promise<boolean>;
};

describe('who may write memberships, teams and team accesses', () => {
  let db: Database;
  let api: ODataTestApp;
  let organization: number;
  let fleet: fx.FleetFixture;
  let target: fx.UserFixture;
  const roleId: Record<string, number> = {};
  // Rows each write works on, recreated before every case.
  let targetMembership = 0;
  let team = 0;
  let teamMembership = 0;
  let observerAccess = 0;
  let fleetMembership = 0;

  const exists = async (table: string, id: number): Promise<boolean> =>
    (await db.query(`SELECT 1 FROM "${table}" WHERE "id" = $1`, [id])).rows.length > 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    organization = await fx.createOrganization(db, 'Matrix Org');
    fleet = await fx.createFleet(db, organization, 'MatrixFleet');
    for (const [name, caller] of Object.entries(callers)) {
      const user = await fx.createUser(db, `m_${name}`.slice(0, 30));
      if (caller.organizationRole) {
        await fx.addOrganizationMember(db, user.userId, organization, caller.organizationRole);
      }
      if (caller.fleetRole) await fx.addFleetMember(db, user.userId, fleet.id, caller.fleetRole);
      api.actors.set(name, userActor(user, caller.platformAdmin ? ['admin.home'] : []));
    }
    target = await fx.createUser(db, 'm_target');
    const { rows } = await db.query<{ id: number; name: string }>(
      'SELECT "id", "name" FROM "application_membership_role"',
    );
    for (const row of rows) roleId[row.name] = row.id;
  });

  beforeEach(async () => {
    await db.query(`DELETE FROM "team" WHERE "belongs_to__organization" = $1`, [organization]);
    await db.query(`DELETE FROM "organization_membership" WHERE "user" = $1`, [target.userId]);
    await db.query(`DELETE FROM "user_application_membership" WHERE "user" = $1`, [target.userId]);
    targetMembership = await fx.addOrganizationMember(db, target.userId, organization, 'member');
    team = await fx.createTeam(db, organization, 'Crew');
    teamMembership = await fx.addTeamMember(db, target.userId, team);
    observerAccess = await fx.grantTeamAccess(db, team, fleet.id, 'observer');
    fleetMembership = await fx.addFleetMember(db, target.userId, fleet.id, 'observer');
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  const role = async (table: string, id: number): Promise<string | undefined> => {
    const column =
      table === 'organization_membership'
        ? 'organization_membership_role'
        : 'application_membership_role';
    const { rows } = await db.query<{ name: string }>(
      `SELECT r."name" FROM "${table}" t JOIN "${column}" r ON r."id" = t."${column}" WHERE t."id" = $1`,
      [id],
    );
    return rows[0]?.name;
  };

  const writes: Write[] = [
    {
      name: 'make a member administrator',
      permitted: (c) => grants(held(c), 'organization_membership', 'update'),
      run: (as) =>
        api.send(
          'PATCH',
          `/organization_membership(${targetMembership})`,
          { organization_membership_role: 1 },
          as,
        ),
      done: async () =>
        (await role('organization_membership', targetMembership)) === 'administrator',
    },
    {
      name: 'remove a member from the organization',
      permitted: (c) => grants(held(c), 'organization_membership', 'delete'),
      run: (as) => api.send('DELETE', `/organization_membership(${targetMembership})`, {}, as),
      done: async () => !(await exists('organization_membership', targetMembership)),
    },
    {
      name: 'create a team',
      permitted: (c) => grants(held(c), 'team', 'create'),
      run: (as) =>
        api.send(
          'POST',
          '/team',
          { name: 'Night shift', belongs_to__organization: organization },
          as,
        ),
      done: async () =>
        (await db.query(`SELECT 1 FROM "team" WHERE "name" = 'Night shift'`)).rows.length > 0,
    },
    {
      name: 'rename a team',
      permitted: (c) => grants(held(c), 'team', 'update'),
      run: (as) => api.send('PATCH', `/team(${team})`, { name: 'Renamed' }, as),
      done: async () =>
        (await db.query(`SELECT 1 FROM "team" WHERE "id" = $1 AND "name" = 'Renamed'`, [team])).rows
          .length > 0,
    },
    {
      name: 'delete a team',
      permitted: (c) => grants(held(c), 'team', 'delete'),
      run: (as) => api.send('DELETE', `/team(${team})`, {}, as),
      done: async () => !(await exists('team', team)),
    },
    {
      name: 'add a member to a team',
      permitted: (c) => grants(held(c), 'team_membership', 'create'),
      run: async (as) => {
        await db.query('DELETE FROM "team_membership" WHERE "id" = $1', [teamMembership]);
        return api.send(
          'POST',
          '/team_membership',
          { username: 'm_target', is_member_of__team: team },
          as,
        );
      },
      done: async () =>
        (await db.query('SELECT 1 FROM "team_membership" WHERE "user" = $1', [target.userId])).rows
          .length > 0,
    },
    {
      name: 'remove a member from a team',
      permitted: (c) => grants(held(c), 'team_membership', 'delete'),
      run: (as) => api.send('DELETE', `/team_membership?$filter=id in (${teamMembership})`, {}, as),
      done: async () => !(await exists('team_membership', teamMembership)),
    },
    ...(['observer', 'developer'] as const).map((granted): Write => ({
      name: `give a team ${granted} access to a fleet`,
      permitted: (c) =>
        grants(held(c), 'team_application_access', 'create') && mayGrant(c, [granted]),
      run: async (as) => {
        await db.query('DELETE FROM "team_application_access" WHERE "id" = $1', [observerAccess]);
        return api.send(
          'POST',
          '/team_application_access',
          {
            team,
            grants_access_to__application: fleet.id,
            application_membership_role: roleId[granted],
          },
          as,
        );
      },
      done: async () =>
        (
          await db.query(
            'SELECT 1 FROM "team_application_access" WHERE "team" = $1 AND "grants_access_to__application" = $2',
            [team, fleet.id],
          )
        ).rows.length > 0,
    })),
    {
      name: "change a team's access role",
      permitted: (c) =>
        grants(held(c), 'team_application_access', 'update') &&
        mayGrant(c, ['observer', 'safe-operator']),
      run: (as) =>
        api.send(
          'PATCH',
          `/team_application_access(${observerAccess})`,
          { application_membership_role: roleId['safe-operator'] },
          as,
        ),
      done: async () => (await role('team_application_access', observerAccess)) === 'safe-operator',
    },
    {
      name: "remove a team's access",
      permitted: (c) =>
        grants(held(c), 'team_application_access', 'delete') && mayGrant(c, ['observer']),
      run: (as) =>
        api.send(
          'DELETE',
          `/team_application_access?$filter=team eq ${team} and grants_access_to__application eq ${fleet.id}`,
          {},
          as,
        ),
      done: async () => !(await exists('team_application_access', observerAccess)),
    },
    {
      name: 'add a fleet member',
      permitted: (c) => grants(held(c), 'user_application_membership', 'create'),
      run: async (as) => {
        await db.query('DELETE FROM "user_application_membership" WHERE "id" = $1', [
          fleetMembership,
        ]);
        return api.send(
          'POST',
          '/user_application_membership',
          { username: 'm_target', is_member_of__application: fleet.id },
          as,
        );
      },
      done: async () =>
        (
          await db.query('SELECT 1 FROM "user_application_membership" WHERE "user" = $1', [
            target.userId,
          ])
        ).rows.length > 0,
    },
    {
      name: "change a fleet member's role",
      permitted: (c) => grants(held(c), 'user_application_membership', 'update'),
      run: (as) =>
        api.send(
          'PATCH',
          `/user_application_membership(${fleetMembership})`,
          { application_membership_role: roleId.operator },
          as,
        ),
      done: async () => (await role('user_application_membership', fleetMembership)) === 'operator',
    },
    {
      name: 'remove a fleet member',
      permitted: (c) => grants(held(c), 'user_application_membership', 'delete'),
      run: (as) => api.send('DELETE', `/user_application_membership(${fleetMembership})`, {}, as),
      done: async () => !(await exists('user_application_membership', fleetMembership)),
    },
  ];

  const cases = Object.keys(callers).flatMap((caller) =>
    writes.map((write) => [caller, write.name, write] as const),
  );

  it.each(cases)('%s: %s', async (caller, _name, write) => {
    const allowed = write.permitted(callers[caller] ?? {});
    const response = await write.run(caller);
    const done = await write.done();
    if (allowed) {
      expect(response.status, response.text).toBeLessThan(300);
      expect(done).toBe(true);
    } else {
      // Refused (401), or a no-op on rows the caller cannot even see.
      expect([200, 401], response.text).toContain(response.status);
      expect(done).toBe(false);
    }
  });

  it('the oracle is not trivial: each write is allowed to someone and refused to someone', () => {
    for (const write of writes) {
      const outcomes = Object.values(callers).map((caller) => write.permitted(caller));
      expect(outcomes, write.name).toContain(true);
      expect(outcomes, write.name).toContain(false);
    }
  });
});
