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

// balena-sdk's billing model (models.billing) against Flotilla with billing on and the manual
// payment provider.
describe('billing: balena-sdk billing model against Flotilla', () => {
  let server: TestServer;
  let sdk: BalenaSDK;
  let other: BalenaSDK;
  let org: { id: number; handle: string };

  beforeAll(async () => {
    server = await startTestServer({ config: { billingEnabled: true } });
    sdk = (await registerUser(server.url, 'billing')).sdk;
    other = (await registerUser(server.url, 'outsider')).sdk;
    org = await createOrganization(sdk, 'Billed');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('getAccount and updateAccountInfo keep the company info, by handle or id', async () => {
    expect(await sdk.models.billing.getAccount(org.handle)).toMatchObject({
      account_state: 'active',
    });
    await sdk.models.billing.updateAccountInfo(org.id, {
      email: 'accounts@example.com',
      company_name: 'Example Ltd',
      address: { country: 'GB' },
      tax_id: { type: 'gb_vat', value: 'GB123456789' },
    });
    expect(await sdk.models.billing.getAccount(org.id)).toMatchObject({
      email: 'accounts@example.com',
      company_name: 'Example Ltd',
      tax_id: { type: 'gb_vat', value: 'GB123456789' },
    });
    const invalid = await failureOf(
      sdk.models.billing.updateAccountInfo(org.id, { tax_id: { type: 'gb_vat', value: '12' } }),
    );
    expect(invalid.statusCode).toBe(400);
  });

  it('getPlan starts on the free plan; changePlan moves to prototype and invoices it', async () => {
    expect(await sdk.models.billing.getPlan(org.handle)).toMatchObject({
      code: 'free',
      tier: 'free',
      billing: { currency: 'USD', totalCostCents: '0' },
    });
    await sdk.models.billing.changePlan(org.handle, { tier: 'prototype', cycle: 'annual' });
    const plan = await sdk.models.billing.getPlan(org.handle);
    expect(plan).toMatchObject({ code: 'prototype-v2', tier: 'prototype', intervalLength: '12' });
    const invoices = await sdk.models.billing.getInvoices(org.handle);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ state: 'open', total_in_cents: '106920', currency: 'USD' });
  });

  it('downloadInvoice streams the PDF', async () => {
    const [invoice] = await sdk.models.billing.getInvoices(org.id);
    if (!invoice) throw new Error('no invoice');
    const stream = await sdk.models.billing.downloadInvoice(org.id, invoice.invoice_number);
    if (!('on' in stream)) throw new Error('expected a stream in node');
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => resolve());
      stream.on('error', reject);
    });
    expect(Buffer.concat(chunks).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('billing info is empty; the manual provider refuses card calls with a clear 400', async () => {
    expect(await sdk.models.billing.getBillingInfo(org.id)).toEqual({});
    const update = await failureOf(
      sdk.models.billing.updateBillingInfo(org.id, { token_id: 'tok' }),
    );
    expect(update.statusCode).toBe(400);
    expect(update.message).toMatch(/No card payment provider/);
    const intent = await failureOf(sdk.models.billing.createSetupIntent({ organization: org.id }));
    expect(intent.statusCode).toBe(400);
    // Only a subscriber on the free tier may remove a payment method.
    expect((await failureOf(sdk.models.billing.removeBillingInfo(org.id))).statusCode).toBe(400);
    await sdk.models.billing.changePlan(org.id, {
      tier: 'free',
      cycle: 'monthly',
      planChangeReason: 'Done',
    });
    await sdk.models.billing.removeBillingInfo(org.id);
  });

  it('a member of the organization gets a 401, an outsider does not find it', async () => {
    await expectBalenaError(other.models.billing.getPlan(org.id), 'BalenaOrganizationNotFound');
    const { id: otherUser } = await other.auth.getUserInfo();
    await addOrganizationMember(server.db, otherUser, org.id, 'member');
    expect(await other.models.organization.get(org.id, { $select: 'id' })).toEqual({ id: org.id });
    // One call at a time: a rejection nobody awaits yet would count as unhandled.
    const calls = [
      () => other.models.billing.getAccount(org.id),
      () => other.models.billing.getPlan(org.id),
      () => other.models.billing.getInvoices(org.id),
      () => other.models.billing.changePlan(org.id, { tier: 'pilot', cycle: 'monthly' }),
    ];
    for (const call of calls) {
      expect((await failureOf(call())).statusCode).toBe(401);
    }
  });
});
