import type {
  SupportAgent,
  TicketPage,
  TicketPriority,
  TicketStatus,
} from '@flotilla/shared/support/support-tickets';
import { ticketQueuePageSize } from '@flotilla/shared/support/support-tickets';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { type ReplyDraft, uploadAttachments } from './api.js';
import { supportKeys } from './query-keys.js';

export type QueueFilter = {
  status: TicketStatus | 'any';
  // 'anyone', 'none' (unassigned) or an agent's user id.
  assignee: 'anyone' | 'none' | number;
  search: string;
  page: number;
};

// GET /support/v1/queue: every organization's tickets, as the agent filtered them.
export const useTicketQueue = (filter: QueueFilter) => {
  const client = useClient();
  return useQuery({
    queryKey: supportKeys.queue(filter),
    queryFn: () =>
      client.request<TicketPage>({
        path: '/support/v1/queue',
        query: {
          ...(filter.status === 'any' ? {} : { status: filter.status }),
          ...(filter.assignee === 'anyone' ? {} : { assignee: filter.assignee }),
          ...(filter.search.trim() === '' ? {} : { search: filter.search.trim() }),
          limit: ticketQueuePageSize,
          offset: filter.page * ticketQueuePageSize,
        },
      }),
    ...polling(),
  });
};

export const useSupportAgents = () => {
  const client = useClient();
  return useQuery({
    queryKey: supportKeys.agents(),
    queryFn: () => client.request<SupportAgent[]>({ path: '/support/v1/agents' }),
  });
};

export type TicketChange = {
  status?: TicketStatus;
  priority?: TicketPriority;
  assignee?: number | null;
};

export const useChangeTicket = (ticketId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: TicketChange) =>
      client.request<{ id: number }>({
        method: 'PATCH',
        path: `/support/v1/queue/${ticketId}`,
        body: change,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supportKeys.all }),
  });
};

// An agent's reply: mailed to the requester and the cc list; the ticket takes `status`. Its
// files are uploaded to the ticket's organization first.
export const useAgentReply = (ticketId: number, organizationId: number | undefined) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (reply: ReplyDraft & { status: TicketStatus }) =>
      client.request<{ id: number; mailed: number }>({
        method: 'POST',
        path: `/support/v1/queue/${ticketId}/messages`,
        body: {
          body: reply.body,
          status: reply.status,
          uploads:
            organizationId === undefined
              ? []
              : await uploadAttachments(client, organizationId, reply.files),
        },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supportKeys.all }),
  });
};
