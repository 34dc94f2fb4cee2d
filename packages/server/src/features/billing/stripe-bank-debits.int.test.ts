import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingWorld, startBillingWorld } from '../../test-support/billing-world.js';
import { type SiteverifyFake, startSiteverifyFake } from '../../test-support/siteverify-fake.js';
import { type StripeApiFake, startStripeApiFake } from '../../test-support/stripe-api-fake.js';

// Bank debits through the Stripe provider and the captcha on setup intents, against strict local
// fakes of Stripe's API (test-support/stripe-api-fake.ts) and of reCAPTCHA's siteverify
// (test-support/siteverify-fake.ts): neither third party can run here. A setup intent needs a
// verified captcha and offers the payment method types the operator enabled; a US bank account
// saved through it is debited (processing until Stripe's webhook says it settled); a SEPA
// mandate is not charged in dollars.

const webhookSecret = 'whsec_flotillatestsecret';
let stripe: StripeApiFake;
let siteverify: SiteverifyFake;
let world: BillingWorld;
const account = (path = '') => `/billing/v1/account/${world.organization}${path}`;
const invoices = async () =>
  (
    await world.db.query<{ state: string; payment_error: string | null }>(
      `SELECT "state", "payment_error" FROM "invoice" WHERE "organization" = $1 ORDER BY "id"`,
      [world.organization],
    )
  ).rows;
const setupIntent = (answer?: string) =>
  world.call(
    world.admin,
    'POST',
    account('/setup-intent'),
    answer === undefined ? {} : { 'g-recaptcha-response': answer },
  );
const saveMethod = async (method: Parameters<StripeApiFake['confirmSetupIntent']>[1]) => {
  const { id } = (await setupIntent('human')).json<{ id: string }>();
  stripe.confirmSetupIntent(id, method);
  return world.call(world.admin, 'PATCH', account('/info'), { token_id: id });
};

beforeAll(async () => {
  stripe = await startStripeApiFake();
  siteverify = await startSiteverifyFake();
  world = await startBillingWorld({
    start: new Date('2026-07-01T12:00:00Z'),
    organizationName: 'Debits',
    config: {
      stripe: {
        secretKey: stripe.secretKey,
        publishableKey: 'pk_test_flotillafake0001',
        webhookSecret,
        apiUrl: stripe.url,
        paymentMethodTypes: ['card', 'us_bank_account', 'sepa_debit'],
      },
      recaptcha: { siteKey: 'site-key', secret: siteverify.secret, verifyUrl: siteverify.url },
    },
  });
});
afterAll(async () => {
  await world?.close();
  await stripe?.close();
  await siteverify?.close();
});

describe('setup intents', () => {
  it('need a verified captcha, and offer cards and the bank debits enabled', async () => {
    const missing = await setupIntent();
    expect(missing.status).toBe(400);
    expect(missing.body).toBe('The captcha was not verified: try again');
    const wrong = await setupIntent('robot');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toBe('The captcha was not verified: try again');
    expect(stripe.customers()).toEqual([]);
    const good = await setupIntent('human');
    expect(good.status).toBe(200);
    expect(siteverify.answers).toEqual(['robot', 'human']);
    const { id } = good.json<{ id: string }>();
    const intent = await new Stripe(stripe.secretKey, {
      host: new URL(stripe.url).hostname,
      port: Number(new URL(stripe.url).port),
      protocol: 'http',
    }).setupIntents.retrieve(id);
    expect(intent.payment_method_types).toEqual(['card', 'us_bank_account', 'sepa_debit']);
    expect(siteverify.unexpected).toEqual([]);
  });
});

describe('bank debits', () => {
  it('saves a US bank account and debits it, paid once Stripe says it settled', async () => {
    const saved = await saveMethod({ type: 'us_bank_account', brand: '', last4: '6789' });
    expect(saved.status).toBe(200);
    expect(saved.json()).toEqual({ type: 'us_bank_account', last_four: '6789' });
    const upgrade = await world.call(world.admin, 'PATCH', account('/plan'), {
      tier: 'prototype-v2',
    });
    expect(upgrade.status).toBe(200);
    const debit = stripe.paymentIntents().at(-1);
    expect(debit).toMatchObject({ amount: 9900, currency: 'usd', status: 'processing' });
    expect((await invoices()).at(-1)).toEqual({ state: 'open', payment_error: null });
    const payload = JSON.stringify({
      id: 'evt_debit_1',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { ...debit, status: 'succeeded' } },
    });
    const settled = await world.app.inject({
      method: 'POST',
      url: '/billing/v1/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: webhookSecret,
        }),
      },
      payload,
    });
    expect(settled.statusCode).toBe(200);
    expect((await invoices()).at(-1)?.state).toBe('paid');
  });

  it('does not charge a SEPA mandate in dollars: the invoice says why', async () => {
    const saved = await saveMethod({ type: 'sepa_debit', brand: '', last4: '3000' });
    expect(saved.json()).toEqual({ type: 'sepa_debit', last_four: '3000' });
    const attempts = stripe.paymentIntents().length;
    await world.call(world.admin, 'PATCH', account('/plan'), { tier: 'pilot-v2' });
    expect(stripe.paymentIntents()).toHaveLength(attempts);
    expect((await invoices()).at(-1)).toEqual({
      state: 'open',
      payment_error:
        'SEPA debits are collected in euros and invoices here are in US dollars: add a card or a US bank account',
    });
    expect(stripe.unexpected).toEqual([]);
  });
});
