import type { FreeAllowance } from '@flotilla/shared/billing/catalogue';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../client.js';
import { usePublicConfig } from '../config/api.js';
import { isAdmin, useSession } from '../session/useSession.js';
import { billingFloorKeys } from './query-keys.js';

// Whether the installation bills at all (GET /config); undefined while it loads.
export const useBillingEnabled = (): boolean | undefined => {
  const config = usePublicConfig();
  return config.data === undefined ? undefined : config.data.billingEnabled === true;
};

// access_billing: the organization's administrators and platform administrators.
export const useMayAccessBilling = (organizationId: number, enabled = true) => {
  const client = useClient();
  const session = useSession();
  const userId = session?.userId ?? 0;
  const platformAdmin = isAdmin(session);
  return useQuery({
    queryKey: billingFloorKeys.access(organizationId, userId),
    enabled: enabled && userId > 0 && organizationId > 0,
    queryFn: async () => {
      if (platformAdmin) return true;
      const rows = await client.pine.get({
        resource: 'organization_membership',
        options: {
          $select: ['id'],
          $filter: { is_member_of__organization: organizationId, user: userId },
          $expand: { organization_membership_role: { $select: ['name'] } },
        },
      });
      return rows[0]?.organization_membership_role[0]?.name === 'administrator';
    },
  });
};

// An organization on the free plan: its device allowance and how many devices it has (active,
// and frozen over the allowance). Null on any other plan. Every member may read it.
export const useFreeAllowance = (organizationId: number, enabled: boolean) => {
  const client = useClient();
  return useQuery({
    queryKey: billingFloorKeys.freeAllowance(organizationId),
    enabled: enabled && organizationId > 0,
    queryFn: () =>
      client.request<FreeAllowance | null>({
        path: `/billing/v1/account/${organizationId}/free-allowance`,
      }),
  });
};
