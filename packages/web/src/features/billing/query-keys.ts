import { queryRoots } from '../../api/query-roots.js';

export const billingKeys = {
  all: queryRoots.billing,
  account: (organizationId: number) => [...queryRoots.billing, organizationId] as const,
  plan: (organizationId: number) => [...queryRoots.billing, organizationId, 'plan'] as const,
  usage: (organizationId: number) => [...queryRoots.billing, organizationId, 'usage'] as const,
  info: (organizationId: number) => [...queryRoots.billing, organizationId, 'info'] as const,
  accountInfo: (organizationId: number) =>
    [...queryRoots.billing, organizationId, 'account-info'] as const,
  invoices: (organizationId: number) =>
    [...queryRoots.billing, organizationId, 'invoices'] as const,
  preview: (organizationId: number, code: string, cycle: string) =>
    [...queryRoots.billing, organizationId, 'preview', code, cycle] as const,
  catalogue: () => [...queryRoots.billing, 'catalogue'] as const,
  salesTax: () => [...queryRoots.billing, 'sales-tax'] as const,
  firstAdministered: (userId: number) =>
    [...queryRoots.billing, 'first-administered', userId] as const,
};
