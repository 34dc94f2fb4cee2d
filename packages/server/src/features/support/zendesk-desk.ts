import type { TicketField, TicketFieldType } from '@flotilla/shared/support/support-tickets';
import { z } from 'zod';
import { ApiError, badRequest } from '../../infra/errors/api-error.js';
import type { SubmitAnswer, SupportDesk, UploadAnswer } from './support-desk.js';

export type ZendeskSettings = { url: string; email: string; apiToken: string; timeoutMs: number };

const knownTypes: readonly TicketFieldType[] = ['text', 'textarea', 'tagger', 'checkbox'];
const isKnownType = (value: string): value is TicketFieldType =>
  knownTypes.some((type) => type === value);

const fieldsAnswer = z.object({
  ticket_fields: z.array(
    z.object({
      id: z.number(),
      type: z.string(),
      title: z.string(),
      description: z.string().nullish(),
      required_in_portal: z.boolean().optional(),
      required: z.boolean().optional(),
      active: z.boolean().optional(),
      custom_field_options: z.array(z.object({ name: z.string(), value: z.string() })).nullish(),
    }),
  ),
});
const uploadAnswer = z.object({
  upload: z.object({
    token: z.string(),
    attachment: z.object({
      id: z.number(),
      file_name: z.string(),
      content_type: z.string(),
      size: z.number(),
      content_url: z.string(),
    }),
  }),
});
const ticketAnswer = z.object({
  ticket: z.object({
    id: z.number(),
    subject: z.string().nullish(),
    status: z.string(),
    priority: z.string().nullish(),
    created_at: z.string(),
  }),
});

// Forwards the ticket form's calls to a Zendesk instance (its REST API v2, API token
// authentication). The organization travels as a tag, the user as the requester.
export const createZendeskDesk = (settings: ZendeskSettings): SupportDesk => {
  const base = settings.url.replace(/\/+$/, '');
  const authorization = `Basic ${Buffer.from(`${settings.email}/token:${settings.apiToken}`).toString('base64')}`;
  const call = async <T>(
    schema: z.ZodType<T>,
    path: string,
    init: { method: string; body?: string | Blob; contentType?: string },
  ): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method: init.method,
        headers: {
          authorization,
          accept: 'application/json',
          ...(init.contentType ? { 'content-type': init.contentType } : {}),
        },
        ...(init.body === undefined ? {} : { body: init.body }),
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
    } catch {
      throw new ApiError('service_unavailable', 'The help desk could not be reached');
    }
    if (response.status === 422 || response.status === 400) {
      throw badRequest('The help desk refused the request');
    }
    if (!response.ok) {
      throw new ApiError('service_unavailable', `The help desk answered ${response.status}`);
    }
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) {
      throw new ApiError('service_unavailable', 'The help desk answered in an unknown shape');
    }
    return parsed.data;
  };
  return {
    kind: 'zendesk',
    async ticketFields(): Promise<TicketField[]> {
      const answer = await call(fieldsAnswer, '/api/v2/ticket_fields.json', { method: 'GET' });
      return answer.ticket_fields.flatMap((field): TicketField[] => {
        if (!isKnownType(field.type) || field.active === false) return [];
        return [
          {
            id: field.id,
            type: field.type,
            title: field.title,
            description: field.description ?? '',
            required: field.required_in_portal ?? field.required ?? false,
            active: true,
            custom_field_options: field.custom_field_options ?? [],
          },
        ];
      });
    },
    async uploadAttachment(_organizationId, _by, file): Promise<UploadAnswer> {
      return call(
        uploadAnswer,
        `/api/v2/uploads.json?filename=${encodeURIComponent(file.fileName)}`,
        {
          method: 'POST',
          body: new Blob([new Uint8Array(file.bytes)]),
          contentType: file.contentType,
        },
      );
    },
    async submitTicket(organizationId, by, ticket): Promise<SubmitAnswer> {
      const answer = await call(ticketAnswer, '/api/v2/tickets.json', {
        method: 'POST',
        contentType: 'application/json',
        body: JSON.stringify({
          ticket: {
            subject: ticket.subject,
            comment: { body: ticket.comment.body, uploads: ticket.comment.uploads },
            requester: { name: by.username, ...(by.email ? { email: by.email } : {}) },
            email_ccs: ticket.email_ccs,
            custom_fields: ticket.custom_fields,
            priority: ticket.priority,
            tags: [`flotilla_organization_${organizationId}`],
          },
        }),
      });
      return {
        ticket: {
          id: answer.ticket.id,
          subject: answer.ticket.subject ?? ticket.subject,
          status: answer.ticket.status,
          priority: answer.ticket.priority ?? ticket.priority,
          created_at: answer.ticket.created_at,
        },
      };
    },
  };
};
