import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const keys = {
  FLOTILLA_STRIPE_SECRET_KEY: 'sk_test_51abcdefghij',
  FLOTILLA_STRIPE_PUBLISHABLE_KEY: 'pk_test_51abcdefghij',
  FLOTILLA_STRIPE_WEBHOOK_SECRET: 'whsec_abcdefghij',
};

describe('Stripe configuration', () => {
  it('is off by default: the manual provider', () => {
    expect(loadConfig({}).stripe).toBeUndefined();
  });

  it('reads the three keys, with Stripe’s API by default', () => {
    expect(loadConfig(keys).stripe).toEqual({
      secretKey: keys.FLOTILLA_STRIPE_SECRET_KEY,
      publishableKey: keys.FLOTILLA_STRIPE_PUBLISHABLE_KEY,
      webhookSecret: keys.FLOTILLA_STRIPE_WEBHOOK_SECRET,
      apiUrl: 'https://api.stripe.com',
      paymentMethodTypes: ['card', 'us_bank_account'],
    });
    expect(
      loadConfig({ ...keys, FLOTILLA_STRIPE_API_URL: 'http://127.0.0.1:12111' }).stripe?.apiUrl,
    ).toBe('http://127.0.0.1:12111');
  });

  it('offers the payment methods listed: cards and the bank debits enabled', () => {
    expect(
      loadConfig({ ...keys, FLOTILLA_STRIPE_PAYMENT_METHODS: 'card, sepa_debit,card' }).stripe
        ?.paymentMethodTypes,
    ).toEqual(['card', 'sepa_debit']);
    expect(() => loadConfig({ ...keys, FLOTILLA_STRIPE_PAYMENT_METHODS: 'card,paypal' })).toThrow(
      /FLOTILLA_STRIPE_PAYMENT_METHODS/,
    );
  });

  it('refuses some keys without the others, keys of the wrong kind, and test with live', () => {
    expect(() =>
      loadConfig({ FLOTILLA_STRIPE_SECRET_KEY: keys.FLOTILLA_STRIPE_SECRET_KEY }),
    ).toThrow(
      /set all of FLOTILLA_STRIPE_SECRET_KEY, FLOTILLA_STRIPE_PUBLISHABLE_KEY and FLOTILLA_STRIPE_WEBHOOK_SECRET, or none/,
    );
    expect(() =>
      loadConfig({ ...keys, FLOTILLA_STRIPE_SECRET_KEY: keys.FLOTILLA_STRIPE_PUBLISHABLE_KEY }),
    ).toThrow(/must be a Stripe secret key/);
    expect(() =>
      loadConfig({ ...keys, FLOTILLA_STRIPE_PUBLISHABLE_KEY: 'pk_live_51abcdefghij' }),
    ).toThrow(/both be test keys or both live keys/);
  });
});
