import { fleetRolesOn, type UserMemberships } from '@flotilla/shared/permissions/fleet-access';
import { rolePrecedence } from '@flotilla/shared/permissions/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// The console derives a user's roles on a fleet with shared/permissions/fleet-access.ts; the
// server filters rows through the `fleet_access` view. On randomly generated memberships both
// must give the same roles for every (user, fleet).

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

// A small seeded generator (mulberry32), so a failure replays with the same seed.
const generator = (seed: number) => {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    chance: (probability: number): boolean => next() < probability,
    pick: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
  };
};

type World = {
  users: number[];
  fleets: { id: number; organizationId: number }[];
};

const names = async (table: string): Promise<string[]> =>
  (await db.query<{ name: string }>(`SELECT "name" FROM "${table}" ORDER BY "id"`)).rows.map(
    (row) => row.name,
  );

// Organizations with fleets and teams, users with random organization roles, direct fleet
// memberships and team memberships, teams with random accesses to their organization's fleets.
const generateWorld = async (seed: number): Promise<World> => {
  const random = generator(seed);
  const fleetRoleNames = await names('application_membership_role');
  const organizationRoleNames = await names('organization_membership_role');
  const world: World = { users: [], fleets: [] };
  const teams: { id: number; organizationId: number }[] = [];
  for (let o = 0; o < 3; o++) {
    const organizationId = await fx.createOrganization(db, `org-${seed}-${o}`);
    for (let f = 0; f < 2; f++) {
      const fleet = await fx.createFleet(db, organizationId, `fleet${f}`);
      world.fleets.push({ id: fleet.id, organizationId });
    }
    for (let t = 0; t < 2; t++) {
      teams.push({ id: await fx.createTeam(db, organizationId, `team-${t}`), organizationId });
    }
  }
  for (const team of teams) {
    for (const fleet of world.fleets.filter((f) => f.organizationId === team.organizationId)) {
      if (random.chance(0.5)) {
        await fx.grantTeamAccess(db, team.id, fleet.id, random.pick(fleetRoleNames));
      }
    }
  }
  for (let u = 0; u < 6; u++) {
    const { userId } = await fx.createUser(db, `user_${seed}_${u}`);
    world.users.push(userId);
    const organizations = [...new Set(world.fleets.map((fleet) => fleet.organizationId))];
    for (const organizationId of organizations) {
      if (random.chance(0.4)) {
        const role = random.pick(organizationRoleNames);
        if (role !== 'administrator' && role !== 'member') throw new Error(`new role ${role}`);
        await fx.addOrganizationMember(db, userId, organizationId, role);
      }
    }
    for (const fleet of world.fleets) {
      if (random.chance(0.35)) {
        await fx.addFleetMember(db, userId, fleet.id, random.pick(fleetRoleNames));
      }
    }
    for (const team of teams) {
      if (random.chance(0.35)) await fx.addTeamMember(db, userId, team.id);
    }
  }
  return world;
};

// What the console reads of one user (its own memberships, its teams' accesses), as rows.
const membershipsOf = async (userId: number): Promise<UserMemberships> => {
  const fleetMemberships = await db.query<{ fleetId: number; role: string }>(
    `SELECT m."is_member_of__application" AS "fleetId", r."name" AS "role"
       FROM "user_application_membership" m
       JOIN "application_membership_role" r ON r."id" = m."application_membership_role"
      WHERE m."user" = $1`,
    [userId],
  );
  const teamAccesses = await db.query<{ fleetId: number; role: string }>(
    `SELECT a."grants_access_to__application" AS "fleetId", r."name" AS "role"
       FROM "team_application_access" a
       JOIN "team_membership" tm ON tm."is_member_of__team" = a."team"
       JOIN "application_membership_role" r ON r."id" = a."application_membership_role"
      WHERE tm."user" = $1`,
    [userId],
  );
  const organizationMemberships = await db.query<{ organizationId: number; role: string }>(
    `SELECT m."is_member_of__organization" AS "organizationId", r."name" AS "role"
       FROM "organization_membership" m
       JOIN "organization_membership_role" r ON r."id" = m."organization_membership_role"
      WHERE m."user" = $1`,
    [userId],
  );
  return {
    fleetMemberships: fleetMemberships.rows,
    teamAccesses: teamAccesses.rows,
    organizationMemberships: organizationMemberships.rows,
  };
};

const precedence = new Map<string, number>(rolePrecedence.map((role, index) => [role, index]));

const viewRoles = async (userId: number, applicationId: number): Promise<string[]> => {
  const { rows } = await db.query<{ role: string }>(
    'SELECT DISTINCT "role" FROM "fleet_access" WHERE "user" = $1 AND "application" = $2',
    [userId, applicationId],
  );
  return rows
    .map((row) => row.role)
    .sort((a, b) => (precedence.get(a) ?? -1) - (precedence.get(b) ?? -1));
};

describe('fleet roles: shared/permissions/fleet-access.ts and the fleet_access view', () => {
  it.each([1, 2, 3, 4, 5])('agree for every user and fleet (seed %i)', async (seed) => {
    const world = await generateWorld(seed);
    const disagreements: string[] = [];
    let withSomeRole = 0;
    for (const userId of world.users) {
      const memberships = await membershipsOf(userId);
      for (const fleet of world.fleets) {
        const expected = await viewRoles(userId, fleet.id);
        const derived = fleetRolesOn(memberships, fleet);
        if (expected.length > 0) withSomeRole++;
        if (JSON.stringify(derived) !== JSON.stringify(expected)) {
          disagreements.push(
            `user ${userId}, fleet ${fleet.id}: view ${expected.join(',')}, shared ${derived.join(',')}`,
          );
        }
      }
    }
    expect(disagreements).toEqual([]);
    // The generated world must exercise the rules, not only empty answers.
    expect(withSomeRole).toBeGreaterThan(5);
  });
});
