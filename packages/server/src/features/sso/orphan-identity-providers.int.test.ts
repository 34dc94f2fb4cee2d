import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// Deleting an organization removes the identity providers it leaves without any organization
// (with their SAML accounts; migration 0067), and keeps those that still serve another one.
describe('identity providers of a deleted organization', () => {
  let db: Database;
  let api: ODataTestApp;

  const provider = async (identifier: string, organizations: number[]): Promise<number> => {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "identity_provider" ("sso_identifier", "entry_point", "issuer", "certificate")
       VALUES ($1, 'https://idp.example/sso', 'https://idp.example', 'MIIC') RETURNING "id"`,
      [identifier],
    );
    const id = rows[0]?.id ?? 0;
    for (const organization of organizations) {
      await db.query(
        `INSERT INTO "identity_provider_membership" ("organization", "is_authorized_by__identity_provider") VALUES ($1, $2)`,
        [organization, id],
      );
    }
    return id;
  };

  const providers = async (): Promise<{ sso_identifier: string; organizations: number }[]> => {
    const { rows } = await db.query<{ sso_identifier: string; organizations: number }>(
      `SELECT ip."sso_identifier", count(m."id")::integer AS "organizations"
         FROM "identity_provider" ip
         LEFT JOIN "identity_provider_membership" m ON m."is_authorized_by__identity_provider" = ip."id"
        GROUP BY ip."id" ORDER BY ip."sso_identifier"`,
    );
    return rows;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const admin = await fx.createUser(db, 'admin');
    api.actors.set('admin', userActor(admin, ['admin.home']));
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  it('removes a provider left without organizations, with its SAML accounts, and keeps shared ones', async () => {
    const gone = await fx.createOrganization(db, 'Gone');
    const stays = await fx.createOrganization(db, 'Stays');
    const only = await provider('only-gone', [gone]);
    await provider('shared', [gone, stays]);
    await provider('elsewhere', [stays]);
    const user = await fx.createUser(db, 'sam');
    await db.query(
      `INSERT INTO "saml_account" ("belongs_to__user", "was_generated_by__identity_provider", "remote_id") VALUES ($1, $2, 'sam')`,
      [user.userId, only],
    );

    const removal = await api.send('DELETE', `/organization(${gone})`, undefined, 'admin');
    expect(removal.status).toBe(200);

    expect(await providers()).toEqual([
      { sso_identifier: 'elsewhere', organizations: 1 },
      { sso_identifier: 'shared', organizations: 1 },
    ]);
    const accounts = await db.query('SELECT 1 FROM "saml_account"');
    expect(accounts.rows).toEqual([]);
    // The account itself stays (it signs in again once it has a password).
    const users = await db.query('SELECT 1 FROM "user" WHERE "id" = $1', [user.userId]);
    expect(users.rows).toHaveLength(1);
  });
});
