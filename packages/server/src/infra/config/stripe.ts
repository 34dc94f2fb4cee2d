import { z } from 'zod';

// Card payments through Stripe, when an operator configures its keys. Without them the manual
// provider stands: invoices are paid by bank transfer and recorded by a platform administrator.
export type StripeConfig = {
  secretKey: string;
  // Public by design: the console's card form loads Stripe.js with it.
  publishableKey: string;
  webhookSecret: string;
  // Stripe's API, or a stand-in speaking its protocol (stripe-mock, a test's fake).
  apiUrl: string;
  // What the payment-method form offers: cards, and the bank debits the operator enabled.
  paymentMethodTypes: readonly StripePaymentMethodType[];
};

export const stripePaymentMethodTypes = ['card', 'us_bank_account', 'sepa_debit'] as const;
export type StripePaymentMethodType = (typeof stripePaymentMethodTypes)[number];

const key = (pattern: RegExp, what: string) =>
  z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().trim().regex(pattern, `must be a Stripe ${what}`).optional(),
  );

// The environment variables, spread into the server's one configuration schema.
export const stripeEnv = {
  FLOTILLA_STRIPE_SECRET_KEY: key(/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,255}$/, 'secret key'),
  FLOTILLA_STRIPE_PUBLISHABLE_KEY: key(/^pk_(test|live)_[A-Za-z0-9]{8,255}$/, 'publishable key'),
  FLOTILLA_STRIPE_WEBHOOK_SECRET: key(/^whsec_[A-Za-z0-9]{8,255}$/, 'webhook signing secret'),
  FLOTILLA_STRIPE_API_URL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .default('https://api.stripe.com'),
  ),
  // A comma-separated list: card, us_bank_account (ACH Direct Debit), sepa_debit.
  FLOTILLA_STRIPE_PAYMENT_METHODS: z.preprocess(
    (value) => (value === '' || value === undefined ? 'card,us_bank_account' : value),
    z
      .string()
      .transform((value) => [...new Set(value.split(',').map((part) => part.trim()))])
      .pipe(
        z
          .array(z.enum(stripePaymentMethodTypes, 'must list card, us_bank_account or sepa_debit'))
          .min(1),
      ),
  ),
};

type StripeValues = {
  FLOTILLA_STRIPE_SECRET_KEY?: string | undefined;
  FLOTILLA_STRIPE_PUBLISHABLE_KEY?: string | undefined;
  FLOTILLA_STRIPE_WEBHOOK_SECRET?: string | undefined;
  FLOTILLA_STRIPE_API_URL: string;
  FLOTILLA_STRIPE_PAYMENT_METHODS: StripePaymentMethodType[];
};

export const stripeConfigOf = (values: StripeValues): StripeConfig | undefined => {
  const secretKey = values.FLOTILLA_STRIPE_SECRET_KEY;
  const publishableKey = values.FLOTILLA_STRIPE_PUBLISHABLE_KEY;
  const webhookSecret = values.FLOTILLA_STRIPE_WEBHOOK_SECRET;
  const set = [secretKey, publishableKey, webhookSecret].filter((value) => value !== undefined);
  if (set.length === 0) return undefined;
  if (secretKey === undefined || publishableKey === undefined || webhookSecret === undefined) {
    throw new Error(
      'Invalid configuration: set all of FLOTILLA_STRIPE_SECRET_KEY, FLOTILLA_STRIPE_PUBLISHABLE_KEY and FLOTILLA_STRIPE_WEBHOOK_SECRET, or none',
    );
  }
  if (secretKey.split('_')[1] !== publishableKey.split('_')[1]) {
    throw new Error(
      'Invalid configuration: FLOTILLA_STRIPE_SECRET_KEY and FLOTILLA_STRIPE_PUBLISHABLE_KEY must both be test keys or both live keys',
    );
  }
  return {
    secretKey,
    publishableKey,
    webhookSecret,
    apiUrl: values.FLOTILLA_STRIPE_API_URL,
    paymentMethodTypes: values.FLOTILLA_STRIPE_PAYMENT_METHODS,
  };
};
