import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import {
  createFleet,
  createOrganization,
  failureOf,
  registerUser,
  type RegisteredUser,
  uniqueSuffix,
} from './contract-helpers.js';

// Organizations, fleet memberships and teams as balena-sdk and the console's pine calls use them.
describe('organizations, memberships and teams: balena-sdk against Flotilla', () => {
  let server: TestServer;
  let owner: RegisteredUser;
  let colleague: RegisteredUser;
  let colleagueName: string;

  // Adds the colleague to the organization as a member (as an accepted invitation would).
  const addMember = async (organizationId: number): Promise<void> => {
    const { id } = await colleague.sdk.auth.getUserInfo();
    await server.db.query(
      `INSERT INTO "organization_membership" ("user", "is_member_of__organization", "organization_membership_role")
       SELECT $1, $2, r."id" FROM "organization_membership_role" r WHERE r."name" = 'member'`,
      [id, organizationId],
    );
  };

  beforeAll(async () => {
    server = await startTestServer();
    owner = await registerUser(server.url, 'owner');
    colleague = await registerUser(server.url, 'colleague');
    colleagueName = (await colleague.sdk.auth.getUserInfo()).username;
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('organizations', () => {
    it('names are unique among the user’s organizations, ignoring case (409), also on rename', async () => {
      const name = `Acme ${uniqueSuffix()}`;
      const created = await owner.sdk.models.organization.create({ name });
      const duplicate = await failureOf(
        owner.sdk.models.organization.create({ name: name.toUpperCase() }),
      );
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.message).toMatch(/already used/);
      // Another user may use the name.
      await colleague.sdk.models.organization.create({ name: name.toLowerCase() });
      const other = await owner.sdk.models.organization.create({ name: `Other ${uniqueSuffix()}` });
      const rename = await failureOf(
        owner.sdk.pine.patch({
          resource: 'organization',
          id: other.id,
          body: { name: name.toLowerCase() },
        }),
      );
      expect(rename.statusCode).toBe(409);
      await owner.sdk.pine.patch({
        resource: 'organization',
        id: created.id,
        body: { name: `${name} renamed` },
      });
      expect((await owner.sdk.models.organization.get(created.id)).name).toBe(`${name} renamed`);
    });

    it('the last administrator can neither step down nor leave; an organization with fleets is not removed', async () => {
      const organization = await createOrganization(owner.sdk, 'LastAdmin');
      const [own] = await owner.sdk.models.organization.membership.getAllByOrganization(
        organization.id,
      );
      if (!own) throw new Error('no membership');
      const demote = await failureOf(
        owner.sdk.models.organization.membership.changeRole(own.id, 'member'),
      );
      expect(demote.statusCode).toBe(400);
      expect(demote.message).toMatch(/at least one administrator/);
      const leave = await failureOf(owner.sdk.models.organization.membership.remove(own.id));
      expect(leave.statusCode).toBe(400);
      await createFleet(owner.sdk, organization.id, 'blocking');
      const removal = await failureOf(owner.sdk.models.organization.remove(organization.id));
      expect(removal.statusCode).toBe(400);
      expect(removal.message).toMatch(/still has 1 fleet/);
    });

    it('a member sees fellow members’ usernames and may leave', async () => {
      const organization = await createOrganization(owner.sdk, 'Shared');
      await addMember(organization.id);
      const memberships = await colleague.sdk.models.organization.membership.getAllByOrganization(
        organization.id,
        { $select: ['id'], $expand: { user: { $select: ['id', 'username'] } } },
      );
      const ownerName = (await owner.sdk.auth.getUserInfo()).username;
      expect(memberships.flatMap((row) => row.user.map((user) => user.username)).sort()).toEqual(
        [ownerName, colleagueName].sort(),
      );
      const mine = memberships.find((row) => row.user[0]?.username === colleagueName);
      if (!mine) throw new Error('no own membership');
      await colleague.sdk.models.organization.membership.remove(mine.id);
      expect(
        await colleague.sdk.models.organization.getAll({
          $select: ['id'],
          $filter: { id: organization.id },
        }),
      ).toEqual([]);
    });
  });

  describe('fleet memberships', () => {
    it('create, getAllByApplication, changeRole and remove', async () => {
      const organization = await createOrganization(owner.sdk, 'Members');
      const fleet = await createFleet(owner.sdk, organization.id, 'members');
      await addMember(organization.id);
      const created = await owner.sdk.models.application.membership.create({
        application: fleet.id,
        username: colleagueName,
        roleName: 'observer',
      });
      const all = await owner.sdk.models.application.membership.getAllByApplication(fleet.id, {
        $expand: { application_membership_role: { $select: 'name' } },
      });
      expect(all.map((row) => [row.id, row.application_membership_role[0]?.name])).toEqual([
        [created.id, 'observer'],
      ]);
      await owner.sdk.models.application.membership.changeRole(created.id, 'developer');
      const changed = await owner.sdk.models.application.membership.get(created.id, {
        $expand: { application_membership_role: { $select: 'name' } },
      });
      expect(changed.application_membership_role[0]?.name).toBe('developer');
      // The member now reaches the fleet.
      expect((await colleague.sdk.models.application.get(fleet.id, { $select: 'id' })).id).toBe(
        fleet.id,
      );
      await owner.sdk.models.application.membership.remove(created.id);
      expect(await owner.sdk.models.application.membership.getAllByApplication(fleet.id)).toEqual(
        [],
      );
    });
  });

  describe('teams', () => {
    let sdk: BalenaSDK;
    beforeAll(() => {
      sdk = owner.sdk;
    });

    it('create, list, get, rename (unique ignoring case) and remove', async () => {
      const organization = await createOrganization(sdk, 'Teams');
      const ops = await sdk.models.team.create(organization.id, 'ops');
      await sdk.models.team.create(organization.id, 'dev');
      const duplicate = await failureOf(sdk.models.team.create(organization.id, 'OPS'));
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.message).toMatch(/already used by a team/);
      const listed = await sdk.models.team.getAllByOrganization(organization.id, {
        $orderby: { name: 'asc' },
      });
      expect(listed.map((team) => team.name)).toEqual(['dev', 'ops']);
      expect((await sdk.models.team.get(ops.id)).name).toBe('ops');
      const clash = await failureOf(
        sdk.pine.patch({ resource: 'team', id: ops.id, body: { name: 'Dev' } }),
      );
      expect(clash.statusCode).toBe(409);
      await sdk.models.team.rename(ops.id, 'operations');
      expect((await sdk.models.team.get(ops.id)).name).toBe('operations');
      await sdk.models.team.remove(ops.id);
      expect(
        (await sdk.models.team.getAllByOrganization(organization.id)).map((team) => team.name),
      ).toEqual(['dev']);
    });

    it('members and fleet access: a team member gets the team’s role on the fleet, and loses it', async () => {
      const organization = await createOrganization(sdk, 'Access');
      const fleet = await createFleet(sdk, organization.id, 'team-fleet');
      const team = await sdk.models.team.create(organization.id, 'builders');
      const notMember = await failureOf(
        sdk.models.team.membership.create({ team: team.id, username: colleagueName }),
      );
      expect(notMember.statusCode).toBe(400);
      expect(notMember.message).toMatch(/not a member of the team's organization/);
      await addMember(organization.id);
      const membership = await sdk.models.team.membership.create({
        team: team.id,
        username: colleagueName,
      });
      expect((await sdk.models.team.membership.getAllByTeam(team.id)).map((row) => row.id)).toEqual(
        [membership.id],
      );
      const access = await sdk.models.team.applicationAccess.add(team.id, fleet.id, 'observer');
      expect(
        (await sdk.models.team.applicationAccess.getAllByTeam(team.id)).map((row) => row.id),
      ).toEqual([access.id]);
      await sdk.models.team.applicationAccess.update(access.id, 'developer');
      const role = await colleague.sdk.pine.get({
        resource: 'team_application_access',
        id: access.id,
        options: { $expand: { application_membership_role: { $select: 'name' } } },
      });
      expect(role?.application_membership_role[0]?.name).toBe('developer');
      expect((await colleague.sdk.models.application.get(fleet.id, { $select: 'id' })).id).toBe(
        fleet.id,
      );
      // The console's calls: remove by team and fleet, and team members by an id list.
      await sdk.pine.delete({
        resource: 'team_application_access',
        options: { $filter: { team: team.id, grants_access_to__application: fleet.id } },
      });
      await sdk.models.team.membership.remove(membership.id);
      expect(
        await colleague.sdk.pine.get({
          resource: 'application',
          options: { $select: 'id', $filter: { id: fleet.id } },
        }),
      ).toEqual([]);
    });
  });
});
