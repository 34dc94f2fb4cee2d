import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { mailKeys } from './query-keys.js';

// GET /admin/v1/mail (features/mail on the server), newest first.
export type OutboxAnswer = {
  transport: 'smtp' | 'outbox';
  total: number;
  messages: {
    id: number;
    createdAt: string;
    to: string;
    subject: string;
    links: string[];
    status: string;
    lastError: string | null;
  }[];
};

export const outboxPageSize = 50;

export const outboxQuery = (client: FlotillaClient, page: number) =>
  queryOptions({
    queryKey: mailKeys.outbox(page),
    queryFn: () =>
      client.request<OutboxAnswer>({
        path: '/admin/v1/mail',
        query: { limit: outboxPageSize, offset: page * outboxPageSize },
      }),
  });

// One page of the outbox, polled while shown.
export const useOutbox = (page: number) => {
  const client = useClient();
  return useQuery({ ...outboxQuery(client, page), ...polling() });
};
