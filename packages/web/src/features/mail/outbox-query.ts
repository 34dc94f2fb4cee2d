import type { FlotillaClient } from '@flotilla/sdk/create-client';

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

export const outboxQuery = (client: FlotillaClient, page: number) => ({
  queryKey: ['outbox', page] as const,
  queryFn: () =>
    client.request<OutboxAnswer>({
      path: '/admin/v1/mail',
      query: { limit: outboxPageSize, offset: page * outboxPageSize },
    }),
});
