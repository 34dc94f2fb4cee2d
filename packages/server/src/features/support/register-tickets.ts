import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { messageMaxLength, ticketStatuses } from '@flotilla/shared/support/support-tickets';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, notFound } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { attachmentPath, isFileUuid } from './attachment-files.js';
import { requesterOf } from './requester.js';
import { isSupportStaff, requireOrganizationMember, requireUser } from './support-access.js';
import { ticketDetail, ticketOrganization, ticketPage } from './ticket-reads.js';
import { addMessage } from './ticket-writes.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const ticketParams = z.object({ id: z.coerce.number().int().min(1).max(maxRowId) });
const listQuery = z.object({
  organization: z.coerce.number().int().min(1).max(maxRowId),
  status: z.enum(ticketStatuses).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export const replyBody = z.object({
  body: z.string().trim().min(1, 'Write a message').max(messageMaxLength),
  uploads: z
    .array(z.string().regex(/^[0-9a-f]{32}$/, 'Unknown upload token'))
    .max(20)
    .default([]),
});
const downloadParams = z.object({ uuid: z.string(), fileName: z.string() });

// Who may read a ticket: members of its organization, and support staff (every ticket). Anyone
// else is told there is no such ticket.
export const readableTicketOrganization = async (
  ctx: AppContext,
  actor: Parameters<typeof requireUser>[0],
  ticketId: number,
): Promise<number> => {
  const organization = await ticketOrganization(ctx.db, ticketId);
  if (organization === undefined) throw notFound(`No ticket ${ticketId}`);
  if (isSupportStaff(actor)) return organization;
  try {
    await requireOrganizationMember(ctx.db, actor, organization);
  } catch {
    throw notFound(`No ticket ${ticketId}`);
  }
  return organization;
};

// The tickets of an organization as its members see them, their threads, and the members'
// replies; attachment files by their unguessable address.
export const registerTickets = (
  app: FastifyInstance,
  ctx: AppContext,
  origin: () => string,
): void => {
  app.get('/support/v1/tickets', { config: { access: 'user' } }, async (request) => {
    const query = parseBody(listQuery, request.query);
    await requireOrganizationMember(ctx.db, request.actor, query.organization);
    return ticketPage(ctx.db, query);
  });

  app.get('/support/v1/tickets/:id', { config: { access: 'user' } }, async (request) => {
    const { id } = parseBody(ticketParams, request.params);
    await readableTicketOrganization(ctx, request.actor, id);
    const detail = await ticketDetail(ctx.db, id, origin());
    if (!detail) throw notFound(`No ticket ${id}`);
    return detail;
  });

  // A member's reply reopens a ticket that waited on them or was solved; a closed one stays shut.
  app.post(
    '/support/v1/tickets/:id/messages',
    { config: { access: 'user' } },
    async (request, reply) => {
      const { id } = parseBody(ticketParams, request.params);
      const user = requireUser(request.actor);
      const organization = await readableTicketOrganization(ctx, request.actor, id);
      const body = parseBody(replyBody, request.body);
      const requester = await requesterOf(ctx.db, user.userId);
      const addReply = async (tx: Queryable): Promise<number> => {
        const { rows } = await tx.query<{ status: string }>(
          'SELECT "status" FROM "support_ticket" WHERE "id" = $1 FOR UPDATE',
          [id],
        );
        if (rows[0]?.status === 'closed') {
          throw badRequest('This ticket is closed: open a new one instead');
        }
        const created = await addMessage(
          tx,
          id,
          organization,
          { userId: user.userId, name: requester.username, fromAgent: false },
          body.body,
          body.uploads,
        );
        await tx.query(
          `UPDATE "support_ticket" SET "updated_at" = now(),
             "status" = CASE WHEN "status" IN ('pending', 'solved') THEN 'open' ELSE "status" END
           WHERE "id" = $1`,
          [id],
        );
        return created;
      };
      const messageId = await recordedTransaction(ctx.db, request, ctx.now, addReply, {
        status: 201,
        organizationId: organization,
      });
      return reply.status(201).send({ id: messageId });
    },
  );

  app.get(
    '/support/v1/attachments/:uuid/:fileName',
    { config: { access: 'public' } },
    async (request, reply) => {
      const { uuid } = parseBody(downloadParams, request.params);
      if (!isFileUuid(uuid)) throw notFound('No such attachment');
      const { rows } = await ctx.db.query<{ file_name: string; content_type: string }>(
        `SELECT "file_name", "content_type" FROM "support_attachment" WHERE "file_uuid" = $1`,
        [uuid],
      );
      const file = rows[0];
      if (!file) throw notFound('No such attachment');
      const path = attachmentPath(ctx.config.dataDir, uuid);
      const size = await stat(path).then(
        (stats) => stats.size,
        () => undefined,
      );
      if (size === undefined) throw notFound('No such attachment');
      // Always a download, never rendered from our origin.
      return reply
        .header(
          'Content-Disposition',
          `attachment; filename*=UTF-8''${encodeURIComponent(file.file_name)}`,
        )
        .header('Content-Length', size)
        .type(file.content_type)
        .send(createReadStream(path));
    },
  );
};
