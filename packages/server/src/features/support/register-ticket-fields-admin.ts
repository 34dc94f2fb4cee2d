import {
  type AdminTicketField,
  ticketFieldDescriptionMaxLength,
  ticketFieldOptionsMax,
  ticketFieldProblem,
  ticketFieldTitleMaxLength,
  ticketFieldTypes,
} from '@flotilla/shared/support/ticket-field-admin';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, notFound } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { requirePlatformAdmin } from '../platform-admin/register-platform-admin.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const fieldBody = z.object({
  type: z.enum(ticketFieldTypes),
  title: z.string().trim().max(ticketFieldTitleMaxLength),
  description: z.string().trim().max(ticketFieldDescriptionMaxLength).default(''),
  required: z.boolean().default(false),
  active: z.boolean().default(true),
  position: z.number().int().min(0).max(10_000).default(0),
  options: z
    .array(z.object({ name: z.string().trim().max(200), value: z.string().trim().max(200) }))
    .max(ticketFieldOptionsMax)
    .default([]),
});
const idParams = z.object({ id: z.coerce.number().int().min(1).max(maxRowId) });

type FieldRow = {
  id: number;
  type: AdminTicketField['type'];
  title: string;
  description: string;
  is_required: boolean;
  is_active: boolean;
  position: number;
  options: AdminTicketField['options'];
};

const allFields = async (db: Queryable): Promise<AdminTicketField[]> => {
  const { rows } = await db.query<FieldRow>(
    `SELECT "id", "type", "title", "description", "is_required", "is_active", "position", "options"
       FROM "support_ticket_field" ORDER BY "position", "id"`,
  );
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    title: row.title,
    description: row.description,
    required: row.is_required,
    active: row.is_active,
    position: row.position,
    options: row.options,
  }));
};

const checked = (body: unknown) => {
  const field = parseBody(fieldBody, body);
  const problem = ticketFieldProblem(field);
  if (problem !== undefined) throw badRequest(problem);
  return field;
};

// The ticket form's fields, edited by platform administrators: the whole list (inactive ones
// too), a new field, a changed one. The form (GET /zendesk/v1/:orgId/ticket-fields) shows the
// active ones in position order.
export const registerTicketFieldsAdmin = (app: FastifyInstance, ctx: AppContext): void => {
  app.get('/admin/v1/support/ticket-fields', { config: { access: 'user' } }, async (request) => {
    requirePlatformAdmin(request.actor);
    return allFields(ctx.db);
  });

  app.post(
    '/admin/v1/support/ticket-fields',
    { config: { access: 'user' } },
    async (request, reply) => {
      requirePlatformAdmin(request.actor);
      const field = checked(request.body);
      const insert = (tx: Queryable) =>
        tx.query<{ id: number }>(
          `INSERT INTO "support_ticket_field"
           ("type", "title", "description", "is_required", "is_active", "position", "options")
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) RETURNING "id"`,
          [
            field.type,
            field.title,
            field.description,
            field.required,
            field.active,
            field.position,
            JSON.stringify(field.options),
          ],
        );
      const { rows } = await recordedTransaction(ctx.db, request, ctx.now, insert, {
        status: 201,
      });
      return reply.status(201).send({ id: rows[0]?.id });
    },
  );

  // The whole field is sent again (the console's dialog edits every part of it).
  app.put(
    '/admin/v1/support/ticket-fields/:id',
    { config: { access: 'user' } },
    async (request) => {
      requirePlatformAdmin(request.actor);
      const { id } = parseBody(idParams, request.params);
      const field = checked(request.body);
      const update = async (tx: Queryable) => {
        const { rowCount } = await tx.query(
          `UPDATE "support_ticket_field" SET "type" = $2, "title" = $3, "description" = $4,
           "is_required" = $5, "is_active" = $6, "position" = $7, "options" = $8::jsonb
         WHERE "id" = $1`,
          [
            id,
            field.type,
            field.title,
            field.description,
            field.required,
            field.active,
            field.position,
            JSON.stringify(field.options),
          ],
        );
        if (rowCount === 0) throw notFound(`No ticket field ${id}`);
      };
      await recordedTransaction(ctx.db, request, ctx.now, update);
      return { id };
    },
  );
};
