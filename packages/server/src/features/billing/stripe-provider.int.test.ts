import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import { type BillingWorld, startBillingWorld } from '../../test-support/billing-world.js';
import { type StripeApiFake, startStripeApiFake } from '../../test-support/stripe-api-fake.js';
import { createTestContext } from '../../test-support/test-context.js';
import { runBillingSweep } from './register-billing-admin.js';

// The Stripe payment provider against a strict local fake of the Stripe endpoints it calls
// (test-support/stripe-api-fake.ts: Stripe itself cannot run here): a card saved through a
// setup intent, invoices charged to it (a plan change, the period's invoice by the hourly
// sweep), a declined card not charged twice and a new card charged, credits paid by card, and
// Stripe's webhook verified by its signature settling a payment that finished later.

const webhookSecret = 'whsec_flotillatestsecret';
let fake: StripeApiFake;
let world: BillingWorld;
let db: Database;
let ctx: AppContext;
let app: FastifyInstance;
let admin: number;
let member: number;
let organization: number;
const call = (...args: Parameters<BillingWorld['call']>) => world.call(...args);
const account = (path = '') => `/billing/v1/account/${organization}${path}`;
const invoices = async () =>
  (
    await db.query<{
      state: string;
      payment_error: string | null;
      provider_payment_id: string | null;
    }>(
      `SELECT "state", "payment_error", "provider_payment_id" FROM "invoice"
       WHERE "organization" = $1 ORDER BY "id"`,
      [organization],
    )
  ).rows;
const saveCard = async (card: Parameters<StripeApiFake['confirmSetupIntent']>[1]) => {
  const intent = await call(admin, 'POST', account('/setup-intent'));
  expect(intent.status).toBe(200);
  const { id } = intent.json<{ id: string }>();
  fake.confirmSetupIntent(id, card);
  return call(admin, 'PATCH', account('/info'), { token_id: id });
};
const deliver = (event: object, secret = webhookSecret) => {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return app.inject({
    method: 'POST',
    url: '/billing/v1/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
};

beforeAll(async () => {
  fake = await startStripeApiFake();
  world = await startBillingWorld({
    start: new Date('2026-05-01T12:00:00Z'),
    organizationName: 'Cards',
    config: {
      stripe: {
        secretKey: fake.secretKey,
        publishableKey: 'pk_test_flotillafake0001',
        webhookSecret,
        apiUrl: fake.url,
        paymentMethodTypes: ['card'],
      },
    },
  });
  ({ db, ctx, app, admin, member, organization } = world);
});
afterAll(async () => {
  await world?.close();
  await fake?.close();
});

describe('the Stripe payment provider', () => {
  it('saves a card through a setup intent of the organization’s own customer', async () => {
    expect((await call(member, 'POST', account('/setup-intent'))).status).toBe(401);
    const saved = await saveCard({ brand: 'visa', last4: '4242' });
    expect(saved.status).toBe(200);
    expect(saved.json()).toEqual({
      type: 'card',
      last_four: '4242',
      card_type: 'visa',
      month: '12',
      year: '2034',
    });
    expect((await call(admin, 'GET', account('/info'))).json()).toMatchObject({
      last_four: '4242',
    });
    // A second setup intent reuses the customer.
    expect((await call(admin, 'POST', account('/setup-intent'))).status).toBe(200);
    expect(fake.customers()).toHaveLength(1);
    expect(fake.customers()[0]?.metadata).toEqual({ flotilla_organization: String(organization) });
  });

  it('refuses a setup intent that did not complete, or of another customer', async () => {
    const intent = (await call(admin, 'POST', account('/setup-intent'))).json<{ id: string }>();
    const unconfirmed = await call(admin, 'PATCH', account('/info'), { token_id: intent.id });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body).toBe('This card setup did not complete: add the card again');
    const odd = await call(admin, 'PATCH', account('/info'), { token_id: 'tok_visa' });
    expect(odd.body).toBe('Unknown payment token');
  });

  it('charges the invoice of a plan change to the card', async () => {
    const upgrade = await call(admin, 'PATCH', account('/plan'), { tier: 'prototype-v2' });
    expect(upgrade.status).toBe(200);
    expect(await invoices()).toEqual([
      expect.objectContaining({ state: 'paid', payment_error: null }),
    ]);
    const [intent] = fake.paymentIntents();
    expect(intent).toMatchObject({ amount: 9900, currency: 'usd', status: 'succeeded' });
  });

  it('records a declined card once, and charges the next card saved', async () => {
    await saveCard({ brand: 'mastercard', last4: '0002', behaviour: 'declines' });
    world.advanceDays(31);
    await runBillingSweep(ctx, 'http://console.test');
    expect((await invoices())[1]).toMatchObject({
      state: 'open',
      payment_error: 'Your card was declined.',
    });
    const attempts = fake.paymentIntents().length;
    await runBillingSweep(ctx, 'http://console.test');
    expect(fake.paymentIntents()).toHaveLength(attempts);
    // A card attached by its payment-method token (no setup intent) is tried at once.
    const method = fake.createPaymentMethod({ brand: 'amex', last4: '0005' });
    const saved = await call(admin, 'PATCH', account('/info'), { token_id: method });
    expect(saved.json()).toMatchObject({ card_type: 'amex', last_four: '0005' });
    expect((await invoices())[1]).toMatchObject({ state: 'paid', payment_error: null });
  });

  it('pays credits by card', async () => {
    await call(admin, 'PATCH', account('/plan'), { tier: 'pilot-v2' });
    const feature = (
      await db.query<{ id: number }>(`SELECT "id" FROM "feature" WHERE "slug" = 'device:any'`)
    ).rows[0]?.id;
    const bought = await call(admin, 'POST', '/v7/credit_bundle', {
      belongs_to__organization: organization,
      is_for__feature: feature,
      original_quantity: 10,
    });
    expect(bought.status).toBe(201);
    expect(bought.json()).toMatchObject({ payment_status: 'paid', total_balance: 10 });
    expect(fake.paymentIntents().at(-1)).toMatchObject({ amount: 1500, status: 'succeeded' });
  });

  it('settles a payment that finished later by Stripe’s signed webhook, once', async () => {
    await saveCard({ brand: 'visa', last4: '1111', behaviour: 'processing' });
    world.advanceDays(31);
    await runBillingSweep(ctx, 'http://console.test');
    const pending = (await invoices()).at(-1);
    expect(pending).toMatchObject({ state: 'open', payment_error: null });
    const intent = fake.paymentIntents().at(-1);
    const event = {
      id: 'evt_fake_1',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { ...intent, status: 'succeeded' } },
    };
    const forged = await deliver(event, 'whsec_someoneelsessecret');
    expect(forged.statusCode).toBe(400);
    expect(forged.body).toBe('The Stripe signature does not match this event');
    const unsigned = await app.inject({
      method: 'POST',
      url: '/billing/v1/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(event),
    });
    expect(unsigned.statusCode).toBe(400);
    expect((await invoices()).at(-1)?.state).toBe('open');
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await invoices()).at(-1)?.state).toBe('paid');
    const again = await deliver(event);
    expect(again.json()).toEqual({ received: true });
    expect(fake.unexpected).toEqual([]);
  });

  it('records a failed payment reported by the webhook', async () => {
    world.advanceDays(31);
    await runBillingSweep(ctx, 'http://console.test');
    const intent = fake.paymentIntents().at(-1);
    const failed = await deliver({
      id: 'evt_fake_2',
      object: 'event',
      type: 'payment_intent.payment_failed',
      data: {
        object: {
          ...intent,
          status: 'requires_payment_method',
          last_payment_error: { message: 'Insufficient funds.' },
        },
      },
    });
    expect(failed.statusCode).toBe(200);
    expect((await invoices()).at(-1)).toMatchObject({
      state: 'open',
      payment_error: 'Insufficient funds.',
    });
    expect(fake.unexpected).toEqual([]);
  });
});

describe('without Stripe configured', () => {
  it('answers the webhook 404', async () => {
    const plain = buildServer(createTestContext(db, { config: { billingEnabled: true } }));
    await plain.ready();
    try {
      const response = await plain.inject({
        method: 'POST',
        url: '/billing/v1/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
        payload: '{}',
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
