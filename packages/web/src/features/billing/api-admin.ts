import type { CataloguePlan } from '@flotilla/shared/billing/plan-table';
import { useMutation, useQueryClient } from '@tanstack/react-query';
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
