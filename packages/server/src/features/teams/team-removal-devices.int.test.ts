import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';

type Setup = { fleet: number; team: number; teamMembership: number; access: number };

// A device keeps its owner's fleet access while it uses their credentials, for the team writes that can end a device owner's fleet access: removing
// them from a team, removing a team's fleet access, deleting a team. Each case has its own fleet,
// device and team, so no access left over by another case can make it pass.
describe('team writes that would cut off devices using their owner credentials', () => {
  let db: Database;
  let api: ODataTestApp;
  let organization: number;
  let memberId: number;
  let count = 0;

  const setup = async (owner = memberId): Promise<Setup> => {
    count += 1;
    const fleet = await fx.createFleet(db, organization, `Old${count}`);
    const device = await fx.createDevice(db, fleet.id, `old-pi-${count}`);
    await db.query(
      `UPDATE "device" SET "supervisor_version" = '6.4.2', "os_version" = 'balenaOS 2.50.0',
              "belongs_to__user" = $2 WHERE "id" = $1`,
      [device.id, owner],
    );
    const team = await fx.createTeam(db, organization, `team${count}`);
    const teamMembership = await fx.addTeamMember(db, owner, team);
    const access = await fx.grantTeamAccess(db, team, fleet.id, 'developer');
    return { fleet: fleet.id, team, teamMembership, access };
  };
  const remaining = async (table: string, id: number): Promise<number> =>
    (
      await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" WHERE "id" = $1`, [
        id,
      ])
    ).rows[0]?.n ?? -1;
  const remove = (path: string) => api.send('DELETE', path, {}, 'owner');

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const owner = await fx.createUser(db, 'owner');
    const member = await fx.createUser(db, 'tm');
    memberId = member.userId;
    api.actors.set('owner', userActor(owner));
    organization = await fx.createOrganization(db, 'Team Removal Org');
    await fx.addOrganizationMember(db, owner.userId, organization, 'administrator');
    await fx.addOrganizationMember(db, memberId, organization, 'member');
  });
  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  it('refuses to remove the owner from the team and writes nothing', async () => {
    const { teamMembership } = await setup();
    const response = await remove(`/team_membership(${teamMembership})`);
    expect(response.status).toBe(409);
    expect(response.text).toMatch(/^tm cannot be removed yet: .*: old-pi-\d+$/);
    expect(await remaining('team_membership', teamMembership)).toBe(1);
  });

  it("refuses to remove the team's access to the fleet", async () => {
    const { access } = await setup();
    const response = await remove(`/team_application_access(${access})`);
    expect(response.status).toBe(409);
    expect(response.text).toContain('tm cannot be removed yet');
    expect(await remaining('team_application_access', access)).toBe(1);
  });

  it('refuses to delete the team', async () => {
    const { team, teamMembership } = await setup();
    const response = await remove(`/team(${team})`);
    expect(response.status).toBe(409);
    expect(response.text).toContain('tm cannot be removed yet');
    expect(await remaining('team', team)).toBe(1);
    expect(await remaining('team_membership', teamMembership)).toBe(1);
  });

  it('removes the owner from the team when a direct fleet membership keeps the access', async () => {
    const { fleet, teamMembership } = await setup();
    await fx.addFleetMember(db, memberId, fleet, 'observer');
    const response = await remove(`/team_membership(${teamMembership})`);
    expect(response.status, response.text).toBeLessThan(300);
    expect(await remaining('team_membership', teamMembership)).toBe(0);
  });

  it("removes the team's access when another team keeps the owner's access", async () => {
    const { fleet, access } = await setup();
    const other = await fx.createTeam(db, organization, `other${count}`);
    await fx.addTeamMember(db, memberId, other);
    await fx.grantTeamAccess(db, other, fleet, 'observer');
    const response = await remove(`/team_application_access(${access})`);
    expect(response.status, response.text).toBeLessThan(300);
    expect(await remaining('team_application_access', access)).toBe(0);
  });

  it('deletes the team when the owner is an organization administrator', async () => {
    const admin = await fx.createUser(db, 'ta');
    await fx.addOrganizationMember(db, admin.userId, organization, 'administrator');
    const { team } = await setup(admin.userId);
    const response = await remove(`/team(${team})`);
    expect(response.status, response.text).toBeLessThan(300);
    expect(await remaining('team', team)).toBe(0);
  });

  it('deletes the team when its fleets run up-to-date devices', async () => {
    const { team, fleet } = await setup();
    await db.query(
      `UPDATE "device" SET "supervisor_version" = '17.1.4', "os_version" = 'balenaOS 2.88.4'
        WHERE "belongs_to__application" = $1`,
      [fleet],
    );
    const response = await remove(`/team(${team})`);
    expect(response.status, response.text).toBeLessThan(300);
  });
});
