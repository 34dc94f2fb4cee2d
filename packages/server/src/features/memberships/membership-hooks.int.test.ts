import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';

describe('memberships created by username', () => {
  let db: Database;
  let api: ODataTestApp;
  let fleet: fx.FleetFixture;
  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const owner = await fx.createUser(db, 'owner');
    await fx.createUser(db, 'Newcomer');
    api.actors.set('owner', userActor(owner));
    const organization = await fx.createOrganization(db, 'Members Org');
    await fx.addOrganizationMember(db, owner.userId, organization, 'administrator');
    fleet = await fx.createFleet(db, organization, 'Shared');
  });
  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  it('resolves the username (case-insensitively) to the user', async () => {
    const created = await api.send(
      'POST',
      '/user_application_membership',
      { username: 'newcomer', is_member_of__application: fleet.id, application_membership_role: 1 },
      'owner',
    );
    expect(created.status, created.text).toBe(201);
    const user = await db.query<{ id: number }>(
      `SELECT "id" FROM "user" WHERE "username" = 'Newcomer'`,
    );
    expect(created.body).toMatchObject({ user: { __id: user.rows[0]?.id } });
  });

  it('answers 400 for an unknown username and writes nothing', async () => {
    const response = await api.send(
      'POST',
      '/user_application_membership',
      { username: 'ghost', is_member_of__application: fleet.id, application_membership_role: 1 },
      'owner',
    );
    expect(response.status).toBe(400);
    expect(response.text).toBe('User not found: ghost');
  });
});
