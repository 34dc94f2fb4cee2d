import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// The organization, team and membership rules that the permission tables alone do not hold.
describe('organization, team and membership rules', () => {
  let db: Database;
  let api: ODataTestApp;
  const users: Record<string, fx.UserFixture> = {};

  const user = (name: string): fx.UserFixture => {
    const found = users[name];
    if (!found) throw new Error(name);
    return found;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    for (const name of ['ann', 'ben', 'cat', 'dan', 'eve', 'zoe']) {
      users[name] = await fx.createUser(db, name);
      api.actors.set(name, userActor(user(name)));
    }
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  const create = async (resource: string, body: object, as: string) =>
    api.send('POST', `/${resource}`, body, as);

  const idOf = (body: unknown): number => {
    if (typeof body === 'object' && body !== null && 'id' in body && typeof body.id === 'number') {
      return body.id;
    }
    throw new Error(`no id in ${JSON.stringify(body)}`);
  };

  describe('organization names', () => {
    it('are unique among one user’s organizations, ignoring case; others may reuse them', async () => {
      const first = await create('organization', { name: 'Demo' }, 'ann');
      expect(first.status, first.text).toBe(201);
      const again = await create('organization', { name: ' demo ' }, 'ann');
      expect(again.status).toBe(409);
      expect(again.text).toBe('The name "Demo" is already used by one of your organizations');
      const elsewhere = await create('organization', { name: 'demo' }, 'ben');
      expect(elsewhere.status, elsewhere.text).toBe(201);
    });

    it('apply to renames, except to the organization itself', async () => {
      const one = idOf((await create('organization', { name: 'Orchard' }, 'ann')).body);
      const two = idOf((await create('organization', { name: 'Vineyard' }, 'ann')).body);
      const clash = await api.send('PATCH', `/organization(${two})`, { name: 'ORCHARD' }, 'ann');
      expect(clash.status).toBe(409);
      const recased = await api.send('PATCH', `/organization(${one})`, { name: 'ORCHARD' }, 'ann');
      expect(recased.status, recased.text).toBe(200);
      const empty = await api.send('PATCH', `/organization(${one})`, { name: '  ' }, 'ann');
      expect(empty.status).toBe(400);
    });
  });

  describe('deleting an organization', () => {
    it('is for its sole administrator, once it has no fleets', async () => {
      const organization = idOf((await create('organization', { name: 'Doomed' }, 'ann')).body);
      const fleet = await fx.createFleet(db, organization, 'DoomedFleet');
      const withFleet = await api.send('DELETE', `/organization(${organization})`, {}, 'ann');
      expect(withFleet.status).toBe(400);
      expect(withFleet.text).toBe('"Doomed" still has 1 fleet: delete it first');
      await db.query('DELETE FROM "application" WHERE "id" = $1', [fleet.id]);
      await fx.addOrganizationMember(db, user('ben').userId, organization, 'administrator');
      const shared = await api.send('DELETE', `/organization(${organization})`, {}, 'ann');
      expect(shared.status).toBe(400);
      expect(shared.text).toMatch(/other administrators/);
      await db.query(
        'DELETE FROM "organization_membership" WHERE "user" = $1 AND "is_member_of__organization" = $2',
        [user('ben').userId, organization],
      );
      const deleted = await api.send('DELETE', `/organization(${organization})`, {}, 'ann');
      expect(deleted.status, deleted.text).toBe(200);
      const left = await db.query('SELECT 1 FROM "organization" WHERE "id" = $1', [organization]);
      expect(left.rows).toEqual([]);
    });
  });

  describe('the last administrator', () => {
    it('can be neither demoted, nor removed, nor leave; another administrator can', async () => {
      const organization = await fx.createOrganization(db, 'Keepers');
      const annId = await fx.addOrganizationMember(
        db,
        user('ann').userId,
        organization,
        'administrator',
      );
      const memberRole = 2;
      const demoted = await api.send(
        'PATCH',
        `/organization_membership(${annId})`,
        { organization_membership_role: memberRole },
        'ann',
      );
      expect(demoted.status).toBe(400);
      expect(demoted.text).toBe(
        'An organization needs at least one administrator: make someone else administrator first',
      );
      const left = await api.send('DELETE', `/organization_membership(${annId})`, {}, 'ann');
      expect(left.status).toBe(400);

      const benId = await fx.addOrganizationMember(
        db,
        user('ben').userId,
        organization,
        'administrator',
      );
      // Both at once would leave none.
      const both = await api.send(
        'PATCH',
        `/organization_membership?$filter=is_member_of__organization eq ${organization}`,
        { organization_membership_role: memberRole },
        'ann',
      );
      expect(both.status).toBe(400);
      const leaves = await api.send('DELETE', `/organization_membership(${annId})`, {}, 'ann');
      expect(leaves.status, leaves.text).toBe(200);
      const stillAdmin = await db.query(
        `SELECT r."name" FROM "organization_membership" m JOIN "organization_membership_role" r
            ON r."id" = m."organization_membership_role" WHERE m."id" = $1`,
        [benId],
      );
      expect(stillAdmin.rows).toEqual([{ name: 'administrator' }]);
    });
  });

  describe('memberships', () => {
    it('a fleet membership makes its user a member of the organization, in the same write', async () => {
      const organization = await fx.createOrganization(db, 'Joiners');
      await fx.addOrganizationMember(db, user('ann').userId, organization, 'administrator');
      const fleet = await fx.createFleet(db, organization, 'JoinFleet');
      const created = await create(
        'user_application_membership',
        { username: 'cat', is_member_of__application: fleet.id },
        'ann',
      );
      expect(created.status, created.text).toBe(201);
      const { rows } = await db.query<{ name: string }>(
        `SELECT r."name" FROM "organization_membership" m JOIN "organization_membership_role" r
            ON r."id" = m."organization_membership_role"
          WHERE m."user" = $1 AND m."is_member_of__organization" = $2`,
        [user('cat').userId, organization],
      );
      expect(rows).toEqual([{ name: 'member' }]);
      const role = await db.query<{ name: string }>(
        `SELECT r."name" FROM "user_application_membership" m JOIN "application_membership_role" r
            ON r."id" = m."application_membership_role" WHERE m."id" = $1`,
        [idOf(created.body)],
      );
      expect(role.rows).toEqual([{ name: 'developer' }]);
    });

    it('leaving an organization ends the team and fleet memberships there, and the access', async () => {
      const organization = await fx.createOrganization(db, 'Leavers');
      await fx.addOrganizationMember(db, user('ann').userId, organization, 'administrator');
      const membership = await fx.addOrganizationMember(
        db,
        user('dan').userId,
        organization,
        'member',
      );
      const fleet = await fx.createFleet(db, organization, 'LeaveFleet');
      const team = await fx.createTeam(db, organization, 'Leaving crew');
      await fx.addTeamMember(db, user('dan').userId, team);
      await fx.grantTeamAccess(db, team, fleet.id, 'developer');
      await fx.addFleetMember(db, user('dan').userId, fleet.id, 'observer');
      const access = () =>
        db.query('SELECT "role" FROM "fleet_access" WHERE "user" = $1 AND "application" = $2', [
          user('dan').userId,
          fleet.id,
        ]);
      expect((await access()).rows).toHaveLength(2);
      const left = await api.send('DELETE', `/organization_membership(${membership})`, {}, 'dan');
      expect(left.status, left.text).toBe(200);
      expect((await access()).rows).toEqual([]);
      const teamRows = await db.query('SELECT 1 FROM "team_membership" WHERE "user" = $1', [
        user('dan').userId,
      ]);
      expect(teamRows.rows).toEqual([]);
    });
  });

  describe('teams', () => {
    it('names are unique within the organization, ignoring case', async () => {
      const organization = await fx.createOrganization(db, 'Teamsters');
      const other = await fx.createOrganization(db, 'Others');
      await fx.addOrganizationMember(db, user('ann').userId, organization, 'administrator');
      await fx.addOrganizationMember(db, user('ann').userId, other, 'administrator');
      const ops = await create(
        'team',
        { name: 'ops', belongs_to__organization: organization },
        'ann',
      );
      expect(ops.status, ops.text).toBe(201);
      const shouting = await create(
        'team',
        { name: 'OPS', belongs_to__organization: organization },
        'ann',
      );
      expect(shouting.status).toBe(409);
      expect(shouting.text).toBe('The name "ops" is already used by a team of this organization');
      expect(
        (await create('team', { name: 'OPS', belongs_to__organization: other }, 'ann')).status,
      ).toBe(201);
      const dev = idOf(
        (await create('team', { name: 'dev', belongs_to__organization: organization }, 'ann')).body,
      );
      expect((await api.send('PATCH', `/team(${dev})`, { name: 'Ops' }, 'ann')).status).toBe(409);
    });

    it('take members from their organization only, and fleets of their organization only', async () => {
      const organization = await fx.createOrganization(db, 'Closed shop');
      const other = await fx.createOrganization(db, 'Elsewhere');
      await fx.addOrganizationMember(db, user('ann').userId, organization, 'administrator');
      await fx.addOrganizationMember(db, user('ann').userId, other, 'administrator');
      const team = await fx.createTeam(db, organization, 'Insiders');
      const outsider = await create(
        'team_membership',
        { username: 'eve', is_member_of__team: team },
        'ann',
      );
      expect(outsider.status).toBe(400);
      expect(outsider.text).toBe("eve is not a member of the team's organization");
      const foreignFleet = await fx.createFleet(db, other, 'ForeignFleet');
      const access = await create(
        'team_application_access',
        { team, grants_access_to__application: foreignFleet.id, application_membership_role: 1 },
        'ann',
      );
      expect(access.status).toBe(400);
      expect(access.text).toBe('A team can only be given access to fleets of its own organization');
    });
  });

  describe('fellow members', () => {
    it('a read compiled for one member and reused for another shows each only their own actor', async () => {
      const organization = await fx.createOrganization(db, 'Shared statements');
      await fx.addOrganizationMember(db, user('ann').userId, organization, 'administrator');
      await fx.addOrganizationMember(db, user('ben').userId, organization, 'member');
      // The same URL from two callers of the same shape: the second reuses the first's statement
      // (statement-cache.ts) with its own id as the owner-only condition's value.
      const url = `/user?$select=id,actor&$filter=id in (${user('ann').userId},${user('ben').userId})&$orderby=id`;
      const actorsSeenBy = async (name: string) => {
        const answer = await api.get(url, name);
        return answer.body;
      };
      const ordered = [user('ann'), user('ben')].sort((a, b) => a.userId - b.userId);
      const expected = (viewer: string) => ({
        d: ordered.map((row) => ({
          id: row.userId,
          actor: row === user(viewer) ? { __id: row.actorId } : null,
        })),
      });
      expect(await actorsSeenBy('ann')).toEqual(expected('ann'));
      expect(await actorsSeenBy('ben')).toEqual(expected('ben'));
      expect(await actorsSeenBy('ann')).toEqual(expected('ann'));
    });

    it('see each other’s username and nothing else; strangers see nothing', async () => {
      const organization = await fx.createOrganization(db, 'Neighbours');
      await fx.addOrganizationMember(db, user('ann').userId, organization, 'administrator');
      await fx.addOrganizationMember(db, user('ben').userId, organization, 'member');
      const seen = await api.get(`/user(${user('ann').userId})`, 'ben');
      expect(seen.body).toEqual({
        d: [
          {
            id: user('ann').userId,
            username: 'ann',
            created_at: null,
            actor: null,
            has_legacy_link_to__organization: null,
            has_been_sent_verification_email: null,
            pending_email: null,
          },
        ],
      });
      const own = await api.get(`/user(${user('ben').userId})?$select=actor`, 'ben');
      expect(own.body).toEqual({ d: [{ actor: { __id: user('ben').actorId } }] });
      // Owner-only fields cannot be probed through a filter either.
      const probe = await api.get(
        `/user?$select=id&$filter=actor eq ${user('ann').actorId}`,
        'ben',
      );
      expect(probe.body).toEqual({ d: [] });
      const stranger = await api.get(`/user(${user('ann').userId})`, 'zoe');
      expect(stranger.body).toEqual({ d: [] });
      const members = await api.get(
        `/organization_membership?$select=id&$filter=is_member_of__organization eq ${organization}&$expand=user($select=username)&$orderby=id`,
        'ben',
      );
      expect(members.body).toEqual({
        d: [
          { id: expect.any(Number), user: [{ username: 'ann' }] },
          { id: expect.any(Number), user: [{ username: 'ben' }] },
        ],
      });
    });
  });
});
