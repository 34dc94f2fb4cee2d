import type Stripe from 'stripe';
import type { AppContext } from '../../app-context.js';
import { manualPaymentProvider, type PaymentProvider } from './payment-provider.js';
import { createStripeProvider, stripeClientOf } from './stripe-provider.js';

type Configured = { provider: PaymentProvider; stripe: Stripe | undefined };

const configured = new WeakMap<AppContext, Configured>();

// The installation's payment provider: Stripe when billing is on and its keys are configured,
// the manual provider otherwise. One per context, so the routes, the /v7 hooks and the sweep
// share one client.
export const configuredPayments = (ctx: AppContext): Configured => {
  let found = configured.get(ctx);
  if (!found) {
    const stripe =
      ctx.config.billingEnabled && ctx.config.stripe
        ? stripeClientOf(ctx.config.stripe)
        : undefined;
    found = {
      provider:
        stripe && ctx.config.stripe
          ? createStripeProvider(ctx.db, stripe, ctx.config.stripe.paymentMethodTypes)
          : manualPaymentProvider,
      stripe,
    };
    configured.set(ctx, found);
  }
  return found;
};

export const paymentProviderOf = (ctx: AppContext): PaymentProvider =>
  configuredPayments(ctx).provider;
