import type { CataloguePlan } from '@flotilla/shared/billing/plan-table';
import type { SalesTaxRates } from '@flotilla/shared/billing/sales-tax';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { billingKeys } from './query-keys.js';

// What a platform administrator changes of a plan (prices in cents; features: slug → included
// quantity, 0 removes it).
export type PlanPatch = {
  title?: string;
  monthly_price?: number;
  annual_price?: number;
  can_self_serve?: boolean;
  is_legacy?: boolean;
  additional_device_price?: number;
  additional_microservices_device_price?: number;
  features?: Record<string, number>;
};

// Changing the catalogue refreshes every billing view (plan tables, current plans).
export const usePatchPlan = () => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ code, patch }: { code: string; patch: PlanPatch }) =>
      client.request<CataloguePlan>({
        method: 'PATCH',
        path: `/billing/v1/admin/plans/${encodeURIComponent(code)}`,
        body: patch,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
};

// The US sales tax rates by state code (`*`: every state without its own), in percent.
export const useSalesTaxRates = () => {
  const client = useClient();
  return useQuery({
    queryKey: billingKeys.salesTax(),
    queryFn: () =>
      client.request<{ rates: SalesTaxRates }>({
        method: 'GET',
        path: '/billing/v1/admin/sales-tax',
      }),
  });
};

// Replaces every rate at once; invoices issued afterwards carry them.
export const useSaveSalesTaxRates = () => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rates: SalesTaxRates) =>
      client.request<{ rates: SalesTaxRates }>({
        method: 'PUT',
        path: '/billing/v1/admin/sales-tax',
        body: { rates },
      }),
    onSuccess: (saved) => queryClient.setQueryData(billingKeys.salesTax(), saved),
  });
};
