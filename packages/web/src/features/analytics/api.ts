import type { UsageSummary } from '@flotilla/shared/analytics/usage';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { usageKeys } from './query-keys.js';

// GET /admin/v1/usage (features/analytics on the server): totals over the last `days` days.
export const useUsageSummary = (days: number) => {
  const client = useClient();
  return useQuery({
    queryKey: usageKeys.summary(days),
    queryFn: () => client.request<UsageSummary>({ path: '/admin/v1/usage', query: { days } }),
  });
};

// Whether this server counts at all (GET /config's analytics).
export const useAnalyticsEnabled = () => {
  const client = useClient();
  return useQuery({
    queryKey: usageKeys.enabled,
    queryFn: async () => {
      const config = await client.config();
      return typeof config.analytics === 'string' && config.analytics !== '';
    },
    staleTime: Infinity,
  });
};
