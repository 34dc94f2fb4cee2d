import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { CataloguePlan } from '@flotilla/shared/billing/plan-table';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import type {
  AccountInfo,
  AccountInfoInput,
  CurrentPlan,
  Invoice,
  PaymentMethod,
  PlanChoice,
  PlanPreview,
  Usage,
} from './billing-types.js';
import { billingKeys } from './query-keys.js';

const accountPath = (organizationId: number) => `/billing/v1/account/${organizationId}`;

const read = <T>(client: FlotillaClient, path: string) => client.request<T>({ path });

export const usePlan = (organizationId: number, enabled = true) => {
  const client = useClient();
  return useQuery({
    queryKey: billingKeys.plan(organizationId),
    enabled,
    queryFn: () => read<CurrentPlan>(client, `${accountPath(organizationId)}/plan`),
  });
};

export const useUsage = (organizationId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: billingKeys.usage(organizationId),
    queryFn: () => read<Usage>(client, `${accountPath(organizationId)}/usage`),
  });
};

export const usePaymentMethod = (organizationId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: billingKeys.info(organizationId),
    queryFn: () => read<PaymentMethod>(client, `${accountPath(organizationId)}/info`),
  });
};

export const useAccountInfo = (organizationId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: billingKeys.accountInfo(organizationId),
    queryFn: () => read<AccountInfo>(client, accountPath(organizationId)),
  });
};

export const useInvoices = (organizationId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: billingKeys.invoices(organizationId),
    queryFn: () => read<Invoice[]>(client, `${accountPath(organizationId)}/invoices`),
  });
};

// The plan catalogue changes rarely: kept an hour.
export const catalogueQuery = (client: FlotillaClient) =>
  queryOptions({
    queryKey: billingKeys.catalogue(),
    queryFn: () => read<CataloguePlan[]>(client, '/billing/v1/plans'),
    staleTime: 60 * 60 * 1000,
  });

export const useCatalogue = (enabled = true) => {
  const client = useClient();
  return useQuery({ ...catalogueQuery(client), enabled });
};

// What a change to `choice` would be (its kind) and cost now (the proration).
export const usePlanPreview = (organizationId: number, choice: PlanChoice | null) => {
  const client = useClient();
  return useQuery({
    queryKey: billingKeys.preview(organizationId, choice?.code ?? '', choice?.cycle ?? ''),
    enabled: choice !== null,
    gcTime: 0,
    queryFn: () =>
      client.request<PlanPreview>({
        path: `${accountPath(organizationId)}/plan/preview`,
        query: { tier: choice?.code, cycle: choice?.cycle },
      }),
  });
};

// Refreshes plan, invoices and (unless the target is free) usage after a change.
export const useChangePlan = (organizationId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: PlanChoice & { reason: string }) =>
      client.request<PlanPreview>({
        method: 'PATCH',
        path: `${accountPath(organizationId)}/plan`,
        body: {
          tier: change.code,
          annual: change.cycle === 'annual',
          ...(change.reason.trim() === '' ? {} : { planChangeReason: change.reason.trim() }),
        },
      }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: billingKeys.account(organizationId) }),
  });
};

export const useUpdateAccountInfo = (organizationId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AccountInfoInput) =>
      client.request<AccountInfo>({
        method: 'PATCH',
        path: accountPath(organizationId),
        body: input,
      }),
    onSuccess: (answer) =>
      queryClient.setQueryData(billingKeys.accountInfo(organizationId), answer),
  });
};

export const useRemovePaymentMethod = (organizationId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      client.request<unknown>({ method: 'DELETE', path: `${accountPath(organizationId)}/info` }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.info(organizationId) }),
  });
};

// The invoice's PDF, read as bytes (a JSON request would read it as text).
export const useDownloadInvoice = (organizationId: number) => {
  const client = useClient();
  return useMutation({
    mutationFn: async (invoiceNumber: string): Promise<Blob> => {
      const body = await client.stream({
        path: `${accountPath(organizationId)}/invoices/${encodeURIComponent(invoiceNumber)}/download`,
      });
      const bytes = await new Response(body).arrayBuffer();
      return new Blob([bytes], { type: 'application/pdf' });
    },
  });
};

// The organization of the user's earliest administrator membership: where /billing goes.
export const useFirstAdministeredOrganization = (userId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: billingKeys.firstAdministered(userId),
    enabled: userId > 0,
    queryFn: async () => {
      const rows = await client.pine.get({
        resource: 'organization_membership',
        options: {
          $select: ['id', 'is_member_of__organization'],
          $filter: {
            user: userId,
            organization_membership_role: {
              $any: { $alias: 'r', $expr: { r: { name: 'administrator' } } },
            },
          },
          $orderby: { created_at: 'asc' },
          $top: 1,
        },
      });
      return rows[0]?.is_member_of__organization.__id ?? null;
    },
  });
};
