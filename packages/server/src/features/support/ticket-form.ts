import {
  ccMaxAddresses,
  isCcAddress,
  messageMaxLength,
  subjectMaxLength,
  type TicketField,
  type TicketFieldType,
  ticketPriorities,
} from '@flotilla/shared/support/support-tickets';
import { z } from 'zod';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest } from '../../infra/errors/api-error.js';

// POST /zendesk/v1/:orgId/submit-ticket, in Zendesk's ticket shape: the console built for the
// hosted desk sends this body unchanged.
export const submitTicketBody = z.object({
  subject: z.string().trim().min(1, 'Subject is required').max(subjectMaxLength),
  comment: z.object({
    body: z.string().trim().min(1, 'Description is required').max(messageMaxLength),
    uploads: z
      .array(z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'Unknown upload token'))
      .max(20)
      .default([]),
  }),
  email_ccs: z
    .array(
      z.object({
        user_email: z.string().trim().refine(isCcAddress, 'Not a valid e-mail address'),
        action: z.literal('put').default('put'),
      }),
    )
    .max(ccMaxAddresses)
    .default([]),
  custom_fields: z
    .array(
      z.object({
        id: z.number().int().min(1),
        value: z.union([z.string().max(2000), z.boolean(), z.null()]),
      }),
    )
    .max(100)
    .default([]),
  priority: z.enum(ticketPriorities).default('normal'),
});
export type SubmitTicket = z.output<typeof submitTicketBody>;

type FieldRow = {
  id: number;
  type: TicketFieldType;
  title: string;
  description: string;
  is_required: boolean;
  is_active: boolean;
  options: { name: string; value: string }[];
};

export const activeTicketFields = async (db: Queryable): Promise<TicketField[]> => {
  const { rows } = await db.query<FieldRow>(
    `SELECT "id", "type", "title", "description", "is_required", "is_active", "options"
       FROM "support_ticket_field" WHERE "is_active" ORDER BY "position", "id"`,
  );
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    title: row.title,
    description: row.description,
    required: row.is_required,
    active: row.is_active,
    custom_field_options: row.options,
  }));
};

export type CheckedField = { id: number; title: string; value: string | boolean };

// The submitted values of the installation's fields: unknown fields refused, required ones
// present, a drop-down's value one of its options.
export const checkCustomFields = (
  fields: readonly TicketField[],
  submitted: SubmitTicket['custom_fields'],
): CheckedField[] => {
  const byId = new Map(submitted.map((entry) => [entry.id, entry.value]));
  for (const entry of submitted) {
    if (!fields.some((field) => field.id === entry.id)) {
      throw badRequest(`Unknown ticket field ${entry.id}`);
    }
  }
  return fields.flatMap((field): CheckedField[] => {
    const value = byId.get(field.id);
    const empty = value === undefined || value === null || value === '' || value === false;
    if (empty) {
      if (field.required) throw badRequest(`${field.title} is required`);
      return [];
    }
    if (field.type === 'checkbox') {
      if (typeof value !== 'boolean') throw badRequest(`${field.title} must be true or false`);
      return [{ id: field.id, title: field.title, value }];
    }
    if (typeof value !== 'string') throw badRequest(`${field.title} must be text`);
    if (
      field.type === 'tagger' &&
      !field.custom_field_options.some((option) => option.value === value)
    ) {
      throw badRequest(`${field.title} must be one of its options`);
    }
    return [{ id: field.id, title: field.title, value }];
  });
};
