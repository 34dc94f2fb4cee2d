import { queryRoots } from '../query-roots.js';

// What screens outside the billing page read of billing (under the billing root, so the billing
// page's changes refresh them too).
export const billingFloorKeys = {
  access: (organizationId: number, userId: number) =>
    [...queryRoots.billing, 'access', organizationId, userId] as const,
  freeAllowance: (organizationId: number) =>
    [...queryRoots.billing, organizationId, 'free-allowance'] as const,
};
