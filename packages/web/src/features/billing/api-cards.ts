import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { usePublicConfig } from '../../api/config/api.js';
import type { PaymentMethod } from './billing-types.js';
import { billingKeys } from './query-keys.js';

const accountPath = (organizationId: number) => `/billing/v1/account/${organizationId}`;

// The installation's card provider (GET /config cardPayments): Stripe's publishable key, or
// null when invoices are paid by bank transfer; undefined while the configuration loads.
export const useCardPayments = () => {
  const config = usePublicConfig();
  return config.data === undefined ? undefined : (config.data.cardPayments ?? null);
};

export const useCreateSetupIntent = (organizationId: number) => {
  const client = useClient();
  return useMutation({
    // With the captcha's answer when the installation asks for one.
    mutationFn: (captcha: string | undefined) =>
      client.request<{ id: string; client_secret: string }>({
        method: 'POST',
        path: `${accountPath(organizationId)}/setup-intent`,
        body: captcha === undefined ? {} : { 'g-recaptcha-response': captcha },
      }),
  });
};

// Saves the card of a confirmed setup intent as the organization's payment method.
export const useSavePaymentMethod = (organizationId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (setupIntentId: string) =>
      client.request<PaymentMethod>({
        method: 'PATCH',
        path: `${accountPath(organizationId)}/info`,
        body: { token_id: setupIntentId },
      }),
    onSuccess: (method) => {
      queryClient.setQueryData(billingKeys.info(organizationId), method);
      return queryClient.invalidateQueries({ queryKey: billingKeys.account(organizationId) });
    },
  });
};
