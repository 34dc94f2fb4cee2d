import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type {
  TicketDetail,
  TicketField,
  TicketPage,
} from '@flotilla/shared/support/support-tickets';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { useSession } from '../../api/session/useSession.js';
import { polling } from '../../ui/polling.js';
import { supportKeys } from './query-keys.js';

// The signed-in user's organizations and their role in each: the ticket form's organization
// choice and the drawer's Upgrade button (administrators only).
export type SupportOrganization = { id: number; name: string; isAdministrator: boolean };

const organizationsQuery = (client: FlotillaClient, userId: number) => ({
  queryKey: supportKeys.organizations(userId),
  queryFn: async (): Promise<SupportOrganization[]> => {
    const rows = await client.pine.get({
      resource: 'organization',
      options: {
        $select: ['id', 'name'],
        $orderby: { name: 'asc' },
        $expand: {
          organization_membership: {
            $select: ['id'],
            $filter: { user: userId },
            $expand: { organization_membership_role: { $select: ['name'] } },
          },
        },
      },
    });
    return rows.flatMap((row): SupportOrganization[] => {
      const membership = row.organization_membership[0];
      if (!membership) return [];
      return [
        {
          id: row.id,
          name: row.name,
          isAdministrator: membership.organization_membership_role[0]?.name === 'administrator',
        },
      ];
    });
  },
});

export const useSupportOrganizations = (enabled = true) => {
  const client = useClient();
  const userId = useSession()?.userId ?? 0;
  return useQuery({ ...organizationsQuery(client, userId), enabled: enabled && userId > 0 });
};

// GET /billing/v1/account/:id/can-access-support: whether the organization gets private support.
export const useCanAccessSupport = (organizationId: number | null) => {
  const client = useClient();
  return useQuery({
    queryKey: supportKeys.access(organizationId ?? 0),
    enabled: organizationId !== null,
    queryFn: async () =>
      (await client.request<unknown>({
        path: `/billing/v1/account/${organizationId ?? 0}/can-access-support`,
      })) === true,
  });
};

export type DeskAnswer = { kind: 'built-in' | 'zendesk' };

// Which desk takes tickets: only the built-in one lists them in the console.
export const useDesk = (enabled = true) => {
  const client = useClient();
  return useQuery({
    queryKey: supportKeys.desk(),
    enabled,
    queryFn: () => client.request<DeskAnswer>({ path: '/support/v1/desk' }),
    staleTime: Infinity,
  });
};

export const useTicketFields = (organizationId: number | null) => {
  const client = useClient();
  return useQuery({
    queryKey: supportKeys.fields(organizationId ?? 0),
    enabled: organizationId !== null,
    queryFn: async () =>
      (
        await client.request<{ ticket_fields: TicketField[] }>({
          path: `/zendesk/v1/${organizationId ?? 0}/ticket-fields`,
        })
      ).ticket_fields,
  });
};

export type NewTicket = {
  organizationId: number;
  subject: string;
  description: string;
  cc: string[];
  customFields: { id: number; value: string | boolean }[];
  files: File[];
};

// A file as multipart/form-data (field `file`), the body upload-attachment reads.
const multipartOf = async (file: File): Promise<{ data: Blob; contentType: string }> => {
  const form = new FormData();
  form.append('file', file, file.name);
  // An absolute address: nothing is sent, but Request wants one outside a browser page.
  const request = new Request(new URL('/', window.location.href), { method: 'POST', body: form });
  return {
    data: await request.blob(),
    contentType: request.headers.get('content-type') ?? 'multipart/form-data',
  };
};

// Uploads each file to the organization's desk, in order; answers their upload tokens.
export const uploadAttachments = async (
  client: FlotillaClient,
  organizationId: number,
  files: readonly File[],
): Promise<string[]> => {
  const uploads: string[] = [];
  for (const file of files) {
    const answer = await client.request<{ upload: { token: string } }>({
      method: 'POST',
      path: `/zendesk/v1/${organizationId}/upload-attachment`,
      upload: await multipartOf(file),
    });
    uploads.push(answer.upload.token);
  }
  return uploads;
};

// Uploads each attachment, then submits the ticket naming their tokens.
export const useSubmitTicket = () => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ticket: NewTicket) => {
      const uploads = await uploadAttachments(client, ticket.organizationId, ticket.files);
      return client.request<{ ticket: { id: number } }>({
        method: 'POST',
        path: `/zendesk/v1/${ticket.organizationId}/submit-ticket`,
        body: {
          subject: ticket.subject,
          comment: { body: ticket.description, uploads },
          email_ccs: ticket.cc.map((address) => ({ user_email: address, action: 'put' })),
          custom_fields: ticket.customFields,
        },
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supportKeys.all }),
  });
};

export const ticketPageSize = 25;

export const useOrganizationTickets = (organizationId: number, page: number) => {
  const client = useClient();
  return useQuery({
    queryKey: supportKeys.tickets(organizationId, page),
    queryFn: () =>
      client.request<TicketPage>({
        path: '/support/v1/tickets',
        query: {
          organization: organizationId,
          limit: ticketPageSize,
          offset: page * ticketPageSize,
        },
      }),
    ...polling(),
  });
};

export const useTicket = (ticketId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: supportKeys.ticket(ticketId),
    queryFn: () => client.request<TicketDetail>({ path: `/support/v1/tickets/${ticketId}` }),
    ...polling(),
  });
};

// A reply's text and the files attached to it.
export type ReplyDraft = { body: string; files: File[] };

// A member's answer on the ticket's thread, its files uploaded first.
export const useReplyToTicket = (ticketId: number, organizationId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (draft: ReplyDraft) =>
      client.request<{ id: number }>({
        method: 'POST',
        path: `/support/v1/tickets/${ticketId}/messages`,
        body: {
          body: draft.body,
          uploads: await uploadAttachments(client, organizationId, draft.files),
        },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supportKeys.all }),
  });
};
