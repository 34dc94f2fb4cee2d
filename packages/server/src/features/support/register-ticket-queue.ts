import {
  ticketPriorities,
  ticketQueuePageSize,
  ticketStatuses,
} from '@flotilla/shared/support/support-tickets';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { badRequest, notFound } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import type { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { requesterOf } from './requester.js';
import { requireSupportStaff } from './support-access.js';
import { mailAgentReply } from './ticket-mail.js';
import { ticketPage } from './ticket-reads.js';
import { addMessage, changeTicket } from './ticket-writes.js';
import { replyBody } from './register-tickets.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const ticketParams = z.object({ id: z.coerce.number().int().min(1).max(maxRowId) });
const queueQuery = z.object({
  status: z.enum(ticketStatuses).optional(),
  assignee: z.union([z.literal('none'), z.coerce.number().int().min(1).max(maxRowId)]).optional(),
  organization: z.coerce.number().int().min(1).max(maxRowId).optional(),
  search: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(ticketQueuePageSize),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
const changeBody = z
  .object({
    status: z.enum(ticketStatuses).optional(),
    priority: z.enum(ticketPriorities).optional(),
    assignee: z.number().int().min(1).max(maxRowId).nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Nothing to change');
const agentReplyBody = replyBody.extend({
  // What the ticket becomes with the reply: by default it waits on the requester.
  status: z.enum(ticketStatuses).default('pending'),
});

// Users who may be assigned tickets: support agents and platform administrators.
const agentsSql = `SELECT DISTINCT u."id", u."username" FROM "user" u
  JOIN "user_platform_role" r ON r."user" = u."id"
  WHERE r."role" IN ('support_agent', 'balena_admin') ORDER BY u."username"`;

// The support agents' queue (platform role support_agent, and platform administrators): every
// organization's tickets, filtered; assigning, prioritising, changing status and replying. A
// reply is mailed to the requester and the ticket's cc list.
export const registerTicketQueue = (
  app: FastifyInstance,
  ctx: AppContext,
  deps: { limiter: RateLimiter; consoleUrl: () => string },
): void => {
  app.get('/support/v1/queue', { config: { access: 'user' } }, async (request) => {
    requireSupportStaff(request.actor);
    return ticketPage(ctx.db, parseBody(queueQuery, request.query));
  });

  app.get('/support/v1/agents', { config: { access: 'user' } }, async (request) => {
    requireSupportStaff(request.actor);
    const { rows } = await ctx.db.query<{ id: number; username: string }>(agentsSql);
    return rows;
  });

  app.patch('/support/v1/queue/:id', { config: { access: 'user' } }, async (request) => {
    requireSupportStaff(request.actor);
    const { id } = parseBody(ticketParams, request.params);
    const change = parseBody(changeBody, request.body);
    if (change.assignee !== undefined && change.assignee !== null) {
      const { rows } = await ctx.db.query(`SELECT 1 FROM (${agentsSql}) a WHERE a."id" = $1`, [
        change.assignee,
      ]);
      if (rows.length === 0) throw badRequest('Tickets can be assigned to support agents only');
    }
    await recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
      if (!(await changeTicket(tx, id, change))) throw notFound(`No ticket ${id}`);
    });
    return { id };
  });

  app.post(
    '/support/v1/queue/:id/messages',
    { config: { access: 'user' } },
    async (request, reply) => {
      const agent = requireSupportStaff(request.actor);
      const { id } = parseBody(ticketParams, request.params);
      const body = parseBody(agentReplyBody, request.body);
      const author = await requesterOf(ctx.db, agent.userId);
      const answer = await recordedTransaction(
        ctx.db,
        request,
        ctx.now,
        async (tx) => {
          const { rows } = await tx.query<{ organization: number; subject: string }>(
            'SELECT "organization", "subject" FROM "support_ticket" WHERE "id" = $1 FOR UPDATE',
            [id],
          );
          const ticket = rows[0];
          if (!ticket) throw notFound(`No ticket ${id}`);
          const messageId = await addMessage(
            tx,
            id,
            ticket.organization,
            { userId: agent.userId, name: author.username, fromAgent: true },
            body.body,
            body.uploads,
          );
          await changeTicket(tx, id, { status: body.status });
          const mailed = await mailAgentReply(tx, deps.limiter, {
            ticketId: id,
            organizationId: ticket.organization,
            subject: ticket.subject,
            agentName: author.username,
            body: body.body,
            consoleUrl: deps.consoleUrl(),
          });
          return { id: messageId, mailed };
        },
        { status: 201 },
      );
      return reply.status(201).send(answer);
    },
  );
};
