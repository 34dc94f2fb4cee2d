import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { newKeyPair } from '../../test-support/saml-idp.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { activeSubscription } from '../billing/subscriptions.js';

// With billing on, SAML is a plan feature: an organization whose plan lacks saml_access cannot
// add an identity provider (nothing is written); on a plan that has it, it can.
describe('the SAML plan gate', () => {
  let db: Database;
  let api: ODataTestApp;
  let certificate: string;
  let acme: number;

  const providers = async (): Promise<number> =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS "n" FROM "identity_provider"')).rows[0]
      ?.n ?? -1;

  const add = (ssoIdentifier: string) =>
    api.send(
      'POST',
      '/identity_provider',
      {
        sso_identifier: ssoIdentifier,
        entry_point: 'https://idp.example.com/sso',
        issuer: 'https://idp.example.com/metadata',
        certificate,
        organization_id: acme,
      },
      'ann',
    );

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db, { config: { billingEnabled: true } });
    certificate = (await newKeyPair()).cert;
    acme = await fx.createOrganization(db, 'acme');
    const ann = await fx.createUser(db, 'ann');
    await fx.addOrganizationMember(db, ann.userId, acme, 'administrator');
    api.actors.set('ann', userActor(ann));
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  it('refuses a provider on the free plan, and admits it on a plan with saml_access', async () => {
    const refused = await add('acme-free');
    expect(refused.status, refused.text).toBe(400);
    expect(refused.text).toContain('Your plan does not include SAML single sign-on');
    expect(await providers()).toBe(0);

    // The refused write rolled its first look at the plan back: the organization's subscription
    // is made here, then moved to a plan with SAML.
    await activeSubscription(db, acme, new Date());
    await db.query(
      `UPDATE "subscription" SET "is_for__plan" = (SELECT "id" FROM "plan" WHERE "billing_code" = 'enterprise-v2')
        WHERE "is_for__organization" = $1 AND "is_active"`,
      [acme],
    );
    const admitted = await add('acme-enterprise');
    expect(admitted.status, admitted.text).toBe(201);
    expect(await providers()).toBe(1);
  });
});
