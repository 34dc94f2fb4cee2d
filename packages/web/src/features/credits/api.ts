import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { creditKeys } from './query-keys.js';

// GET /billing/v1/account/:id/credits: the balance and what the runway and a purchase need.
export type CreditSummary = {
  billingEnabled: boolean;
  balance: number;
  planCode: string;
  planTitle: string;
  supportsCredits: boolean;
  includedDevices: number;
  deviceCount: number;
  featureId: number | null;
  unitCostCents: number;
  salesThresholdCents: number;
  maxPurchase: number;
  hasPaymentMethod: boolean;
};

export const useCreditSummary = (organizationId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: creditKeys.summary(organizationId),
    queryFn: () =>
      client.request<CreditSummary>({ path: `/billing/v1/account/${organizationId}/credits` }),
  });
};

// The purchase history, newest first (polled: a card payment settles after the purchase).
export const useCreditBundles = (organizationId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: creditKeys.bundles(organizationId),
    ...polling(),
    queryFn: () =>
      client.pine.get({
        resource: 'credit_bundle',
        options: {
          $select: [
            'id',
            'created_at',
            'original_quantity',
            'payment_status',
            'total_balance',
            'total_cost',
            'error_message',
          ],
          $filter: { belongs_to__organization: organizationId },
          $expand: { is_created_by__user: { $select: ['username'] } },
          $orderby: { created_at: 'desc' },
        },
      }),
  });
};

export type CreditNotification = { id: number; threshold: number } | null;

export const useCreditNotification = (organizationId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: creditKeys.notification(organizationId),
    queryFn: async (): Promise<CreditNotification> => {
      const [row] = await client.pine.get({
        resource: 'organization_credit_notification',
        options: {
          $select: ['id', 'is_sent_when_below__threshold'],
          $filter: { organization: organizationId },
        },
      });
      return row ? { id: row.id, threshold: row.is_sent_when_below__threshold } : null;
    },
  });
};

export const usePurchaseCredits = (organizationId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ featureId, quantity }: { featureId: number; quantity: number }) => {
      const created = await client.pine.post({
        resource: 'credit_bundle',
        body: {
          belongs_to__organization: organizationId,
          is_for__feature: featureId,
          original_quantity: quantity,
        },
      });
      const [bundle] = await client.pine.get({
        resource: 'credit_bundle',
        options: {
          $select: ['payment_status', 'error_message'],
          $filter: { id: created.id },
        },
      });
      return bundle;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: creditKeys.all }),
  });
};

// Creates, changes or (with null) deletes the low-credit threshold.
export const useSaveCreditNotification = (organizationId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: {
      current: CreditNotification;
      featureId: number;
      threshold: number | null;
    }) => {
      const { current, threshold } = change;
      if (threshold === null) {
        if (current) {
          await client.pine.delete({
            resource: 'organization_credit_notification',
            id: current.id,
          });
        }
        return;
      }
      if (current) {
        await client.pine.patch({
          resource: 'organization_credit_notification',
          id: current.id,
          body: { is_sent_when_below__threshold: threshold },
        });
        return;
      }
      await client.pine.post({
        resource: 'organization_credit_notification',
        body: {
          organization: organizationId,
          owns_credit_notification_for__feature: change.featureId,
          is_sent_when_below__threshold: threshold,
        },
      });
    },
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: creditKeys.notification(organizationId) }),
  });
};
