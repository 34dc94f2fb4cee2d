import type {
  CreateWebhookRequest,
  WebhookDelivery,
  WebhookEndpoint,
} from '@flotilla/shared/webhooks/webhook-input';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { webhookKeys } from './query-keys.js';

const base = (organizationId: number) => `/webhooks/v1/organizations/${organizationId}/endpoints`;

export const useEventTypes = () => {
  const client = useClient();
  return useQuery({
    queryKey: webhookKeys.eventTypes(),
    queryFn: async () =>
      (
        await client.request<{ eventTypes: { type: string; version: number }[] }>({
          path: '/webhooks/v1/event-types',
        })
      ).eventTypes,
    staleTime: Infinity,
  });
};

export const useWebhookEndpoints = (organizationId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: webhookKeys.endpoints(organizationId),
    queryFn: async () =>
      (await client.request<{ endpoints: WebhookEndpoint[] }>({ path: base(organizationId) }))
        .endpoints,
  });
};

// The organization's fleets, for the scope picker.
export const useOrganizationFleets = (organizationId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: webhookKeys.fleets(organizationId),
    queryFn: () =>
      client.pine.get({
        resource: 'application',
        options: {
          $select: ['id', 'app_name'],
          $filter: { organization: organizationId },
          $orderby: { app_name: 'asc' },
        },
      }),
  });
};

export const useWebhookDeliveries = (organizationId: number, endpointId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: webhookKeys.deliveries(organizationId, endpointId),
    queryFn: async () =>
      (
        await client.request<{ deliveries: WebhookDelivery[] }>({
          path: `${base(organizationId)}/${endpointId}/deliveries`,
        })
      ).deliveries,
    ...polling(5_000),
  });
};

const useInvalidate = (organizationId: number) => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints(organizationId) });
};

export const useCreateWebhook = (organizationId: number) => {
  const client = useClient();
  const invalidate = useInvalidate(organizationId);
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (input: CreateWebhookRequest) =>
      client.request<{ endpoint: WebhookEndpoint; secret: string }>({
        method: 'POST',
        path: base(organizationId),
        body: input,
      }),
    onSuccess: invalidate,
  });
};

export const useSetWebhookEnabled = (organizationId: number, endpointId: number) => {
  const client = useClient();
  const invalidate = useInvalidate(organizationId);
  return useMutation({
    mutationFn: (isEnabled: boolean) =>
      client.request({
        method: 'PATCH',
        path: `${base(organizationId)}/${endpointId}`,
        body: { isEnabled },
      }),
    onSuccess: invalidate,
  });
};

export const useDeleteWebhook = (organizationId: number, endpointId: number) => {
  const client = useClient();
  const invalidate = useInvalidate(organizationId);
  return useMutation({
    mutationFn: () =>
      client.request({ method: 'DELETE', path: `${base(organizationId)}/${endpointId}` }),
    onSuccess: invalidate,
  });
};

export const useRedeliver = (organizationId: number, endpointId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) =>
      client.request({
        method: 'POST',
        path: `${base(organizationId)}/${endpointId}/deliveries/${deliveryId}/redeliver`,
      }),
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: webhookKeys.deliveries(organizationId, endpointId),
      }),
  });
};
