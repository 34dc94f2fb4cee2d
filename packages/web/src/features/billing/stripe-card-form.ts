import { loadStripe } from '@stripe/stripe-js/pure';

export type CardForm = {
  // Confirms the card with Stripe (3-D Secure may take the cardholder to their bank and back
  // to returnUrl); answers the setup intent's id, or Stripe's reason for refusing the card.
  confirm: (returnUrl: string) => Promise<{ setupIntentId: string } | { error: string }>;
  destroy: () => void;
};

// Stripe's card form (Stripe.js, loaded from js.stripe.com only now: this module is imported
// when the card dialog opens), mounted into `element` for the setup intent of `clientSecret`.
export const mountCardForm = async (
  publishableKey: string,
  clientSecret: string,
  element: HTMLElement,
): Promise<CardForm> => {
  const stripe = await loadStripe(publishableKey);
  if (!stripe) throw new Error('Stripe could not be loaded: check your connection and retry');
  const elements = stripe.elements({ clientSecret });
  const payment = elements.create('payment');
  payment.mount(element);
  return {
    confirm: async (returnUrl) => {
      const result = await stripe.confirmSetup({
        elements,
        redirect: 'if_required',
        confirmParams: { return_url: returnUrl },
      });
      if (result.error) return { error: result.error.message ?? 'The card was not accepted' };
      return { setupIntentId: result.setupIntent.id };
    },
    destroy: () => payment.destroy(),
  };
};
