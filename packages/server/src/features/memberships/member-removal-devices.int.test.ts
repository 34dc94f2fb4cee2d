import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// A member whose provisioned devices still use their credentials (supervisor
// below 7.0.0 or OS below 2.0.0) cannot be removed until those devices are updated.
describe('removing a member whose devices need an update', () => {
  let db: Database;
  let api: ODataTestApp;
  let organization: number;
  let fleet: fx.FleetFixture;
  let memberId: number;
  let device: fx.DeviceFixture;

  const setVersions = (deviceId: number, supervisor: string | null, os: string | null) =>
    db.query(
      `UPDATE "device" SET "supervisor_version" = $2, "os_version" = $3, "belongs_to__user" = $4
        WHERE "id" = $1`,
      [deviceId, supervisor, os, memberId],
    );
  // The number the statement selects as "n" (a count or an id).
  const numberOf = async (sql: string, values: readonly number[]): Promise<number> =>
    (await db.query<{ n: number }>(sql, [...values])).rows[0]?.n ?? -1;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const owner = await fx.createUser(db, 'owner');
    const member = await fx.createUser(db, 'mo');
    memberId = member.userId;
    api.actors.set('owner', userActor(owner));
    organization = await fx.createOrganization(db, 'Removal Org');
    await fx.addOrganizationMember(db, owner.userId, organization, 'administrator');
    fleet = await fx.createFleet(db, organization, 'Old Devices');
    device = await fx.createDevice(db, fleet.id, 'old-pi');
  });
  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  it('refuses to remove the fleet member, names the device and writes nothing', async () => {
    await fx.addOrganizationMember(db, memberId, organization, 'member');
    const membership = await fx.addFleetMember(db, memberId, fleet.id, 'developer');
    await setVersions(device.id, '6.4.2', 'balenaOS 2.50.0');
    const response = await api.send(
      'DELETE',
      `/user_application_membership(${membership})`,
      {},
      'owner',
    );
    expect(response.status).toBe(409);
    expect(response.text).toMatch(/^mo cannot be removed yet: .*: old-pi$/);
    const left = await numberOf(
      'SELECT count(*)::int AS n FROM "user_application_membership" WHERE "id" = $1',
      [membership],
    );
    expect(left).toBe(1);
  });

  it('refuses to remove the organization member and keeps their fleet membership', async () => {
    await setVersions(device.id, '17.1.4', 'Resin OS 1.26.0');
    const membership = await numberOf(
      `SELECT "id" AS n FROM "organization_membership"
        WHERE "user" = $1 AND "is_member_of__organization" = $2`,
      [memberId, organization],
    );
    const response = await api.send(
      'DELETE',
      `/organization_membership(${membership})`,
      {},
      'owner',
    );
    expect(response.status).toBe(409);
    expect(response.text).toContain('old-pi');
    const fleetMemberships = await numberOf(
      'SELECT count(*)::int AS n FROM "user_application_membership" WHERE "user" = $1',
      [memberId],
    );
    expect(fleetMemberships).toBe(1);
  });

  it('lets the fleet membership go when a team keeps the fleet access', async () => {
    await setVersions(device.id, '6.4.2', '2.50.0');
    const team = await fx.createTeam(db, organization, 'keepers');
    const teamMembership = await fx.addTeamMember(db, memberId, team);
    const access = await fx.grantTeamAccess(db, team, fleet.id, 'observer');
    const membership = await numberOf(
      'SELECT "id" AS n FROM "user_application_membership" WHERE "user" = $1',
      [memberId],
    );
    const response = await api.send(
      'DELETE',
      `/user_application_membership(${membership})`,
      {},
      'owner',
    );
    expect(response.status, response.text).toBeLessThan(300);
    await db.query('DELETE FROM "team_application_access" WHERE "id" = $1', [access]);
    await db.query('DELETE FROM "team_membership" WHERE "id" = $1', [teamMembership]);
  });

  it('removes the member once the devices are up to date', async () => {
    await setVersions(device.id, '17.1.4', 'balenaOS 2.88.4+rev1');
    const membership = await numberOf(
      `SELECT "id" AS n FROM "organization_membership"
        WHERE "user" = $1 AND "is_member_of__organization" = $2`,
      [memberId, organization],
    );
    const response = await api.send(
      'DELETE',
      `/organization_membership(${membership})`,
      {},
      'owner',
    );
    expect(response.status, response.text).toBeLessThan(300);
  });
});
