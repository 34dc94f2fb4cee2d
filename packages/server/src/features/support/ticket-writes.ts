import type { TicketPriority, TicketStatus } from '@flotilla/shared/support/support-tickets';
import type { Queryable, SqlValue } from '../../infra/db/database.js';
import { badRequest } from '../../infra/errors/api-error.js';
import type { CheckedField } from './ticket-form.js';

const one = async (db: Queryable, sql: string, values: SqlValue[]): Promise<number> => {
  const { rows } = await db.query<{ id: number }>(sql, values);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert returned no id');
  return id;
};

export type Author = { userId: number; name: string; fromAgent: boolean };

// Binds uploads to a message: each token must be an upload of this organization by this author
// that no message holds yet, so nobody can attach someone else's file.
const attachUploads = async (
  tx: Queryable,
  messageId: number,
  organizationId: number,
  author: Author,
  tokens: readonly string[],
): Promise<void> => {
  if (tokens.length === 0) return;
  const { rowCount } = await tx.query(
    `UPDATE "support_attachment" SET "message" = $1
      WHERE "token" = ANY($2::text[]) AND "organization" = $3 AND "uploaded_by" = $4
        AND "message" IS NULL`,
    [messageId, [...new Set(tokens)], organizationId, author.userId],
  );
  if (rowCount !== new Set(tokens).size) throw badRequest('An upload token is unknown or used');
};

export const addMessage = async (
  tx: Queryable,
  ticketId: number,
  organizationId: number,
  author: Author,
  body: string,
  uploads: readonly string[],
): Promise<number> => {
  const messageId = await one(
    tx,
    `INSERT INTO "support_ticket_message" ("ticket", "author", "author_name", "is_from_agent", "body")
     VALUES ($1, $2, $3, $4, $5) RETURNING "id"`,
    [ticketId, author.userId, author.name, author.fromAgent, body],
  );
  await attachUploads(tx, messageId, organizationId, author, uploads);
  return messageId;
};

export type NewTicket = {
  organizationId: number;
  requester: Author;
  subject: string;
  body: string;
  uploads: readonly string[];
  cc: readonly string[];
  customFields: readonly CheckedField[];
  priority: TicketPriority;
};

export const createTicket = async (tx: Queryable, ticket: NewTicket): Promise<number> => {
  const id = await one(
    tx,
    `INSERT INTO "support_ticket"
       ("organization", "requester", "requester_name", "subject", "priority", "cc", "custom_fields")
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb) RETURNING "id"`,
    [
      ticket.organizationId,
      ticket.requester.userId,
      ticket.requester.name,
      ticket.subject,
      ticket.priority,
      JSON.stringify(ticket.cc),
      JSON.stringify(ticket.customFields),
    ],
  );
  await addMessage(tx, id, ticket.organizationId, ticket.requester, ticket.body, ticket.uploads);
  return id;
};

export type TicketChange = {
  status?: TicketStatus;
  priority?: TicketPriority;
  assignee?: number | null;
};

// Applies a change and marks the ticket changed; false when there is no such ticket.
export const changeTicket = async (
  tx: Queryable,
  ticketId: number,
  change: TicketChange,
): Promise<boolean> => {
  const { rowCount } = await tx.query(
    `UPDATE "support_ticket" SET
       "status" = coalesce($2, "status"),
       "priority" = coalesce($3, "priority"),
       "assignee" = CASE WHEN $4::boolean THEN $5::integer ELSE "assignee" END,
       "updated_at" = now()
     WHERE "id" = $1`,
    [
      ticketId,
      change.status ?? null,
      change.priority ?? null,
      change.assignee !== undefined,
      change.assignee ?? null,
    ],
  );
  return rowCount === 1;
};
