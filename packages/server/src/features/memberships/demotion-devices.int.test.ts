import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// For a demotion: an organization administrator made a plain member loses the
// fleets they reached only as administrator, so their outdated devices block it like a removal.
describe('demoting an administrator whose devices need an update', () => {
  let db: Database;
  let api: ODataTestApp;
  let adminId: number;
  let fleet: number;
  let membership: number;
  let memberRole: number;

  const roleOf = async (): Promise<string | undefined> =>
    (
      await db.query<{ name: string }>(
        `SELECT r."name" FROM "organization_membership" m
           JOIN "organization_membership_role" r ON r."id" = m."organization_membership_role"
          WHERE m."id" = $1`,
        [membership],
      )
    ).rows[0]?.name;
  const demote = () =>
    api.send(
      'PATCH',
      `/organization_membership(${membership})`,
      { organization_membership_role: memberRole },
      'owner',
    );

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const owner = await fx.createUser(db, 'owner');
    const admin = await fx.createUser(db, 'da');
    adminId = admin.userId;
    api.actors.set('owner', userActor(owner));
    const organization = await fx.createOrganization(db, 'Demotion Org');
    await fx.addOrganizationMember(db, owner.userId, organization, 'administrator');
    membership = await fx.addOrganizationMember(db, adminId, organization, 'administrator');
    fleet = (await fx.createFleet(db, organization, 'Old Fleet')).id;
    const device = await fx.createDevice(db, fleet, 'old-pi');
    await db.query(
      `UPDATE "device" SET "supervisor_version" = '6.4.2', "belongs_to__user" = $2 WHERE "id" = $1`,
      [device.id, adminId],
    );
    const { rows } = await db.query<{ id: number }>(
      `SELECT "id" FROM "organization_membership_role" WHERE "name" = 'member'`,
    );
    memberRole = rows[0]?.id ?? -1;
  });
  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  it('refuses the demotion and keeps the administrator role', async () => {
    const response = await demote();
    expect(response.status).toBe(409);
    expect(response.text).toMatch(/^da cannot be removed yet: .*: old-pi$/);
    expect(await roleOf()).toBe('administrator');
  });

  it('demotes when a direct fleet membership keeps the fleet', async () => {
    await fx.addFleetMember(db, adminId, fleet, 'developer');
    const response = await demote();
    expect(response.status, response.text).toBeLessThan(300);
    expect(await roleOf()).toBe('member');
  });
});
