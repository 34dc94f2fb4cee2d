import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import { addOrganizationMember } from '../src/test-support/fixtures.js';
import {
  createOrganization,
  expectBalenaError,
  failureOf,
  registerUser,
} from './contract-helpers.js';

// balena-sdk's credit bundle model (models.creditBundle) against Flotilla with billing on and
// the manual payment provider: a purchase is recorded as manually invoiced.
describe('credits: balena-sdk creditBundle model against Flotilla', () => {
  let server: TestServer;
  let sdk: BalenaSDK;
  let other: BalenaSDK;
  let org: { id: number; handle: string };
  let feature: number;

  beforeAll(async () => {
    server = await startTestServer({ config: { billingEnabled: true } });
    sdk = (await registerUser(server.url, 'credits')).sdk;
    other = (await registerUser(server.url, 'outsider')).sdk;
    org = await createOrganization(sdk, 'Credited');
    const [row] = await sdk.pine.get({
      resource: 'feature',
      options: { $select: 'id', $filter: { slug: 'device:microservices' } },
    });
    feature = row?.id ?? 0;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('create refuses a plan without credits, then buys on Pilot', async () => {
    const refused = await failureOf(sdk.models.creditBundle.create(org.handle, feature, 5));
    expect(refused.statusCode).toBe(400);
    await sdk.models.billing.changePlan(org.handle, { tier: 'pilot', cycle: 'monthly' });
    await sdk.models.creditBundle.create(org.handle, feature, 5);
    const bundles = await sdk.models.creditBundle.getAllByOrg(org.id);
    expect(bundles).toHaveLength(1);
    expect(bundles[0]).toMatchObject({
      payment_status: 'manually invoiced',
      original_quantity: 5,
      total_balance: 5,
      total_cost: 1000,
      belongs_to__organization: { __id: org.id },
      is_for__feature: { __id: feature },
    });
    const invoices = await sdk.models.billing.getInvoices(org.id);
    expect(invoices.map((invoice) => invoice.total_in_cents)).toContain('1000');
  });

  it('an outsider does not find the organization; a member gets nothing', async () => {
    await expectBalenaError(
      other.models.creditBundle.getAllByOrg(org.id),
      'BalenaOrganizationNotFound',
    );
    const { id: otherUser } = await other.auth.getUserInfo();
    await addOrganizationMember(server.db, otherUser, org.id, 'member');
    expect(await other.models.creditBundle.getAllByOrg(org.id)).toEqual([]);
    expect((await failureOf(other.models.creditBundle.create(org.id, feature, 1))).statusCode).toBe(
      401,
    );
  });
});
