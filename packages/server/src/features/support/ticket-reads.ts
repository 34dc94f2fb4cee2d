import type {
  TicketAttachment,
  TicketDetail,
  TicketPage,
  TicketPriority,
  TicketStatus,
  TicketSummary,
} from '@flotilla/shared/support/support-tickets';
import type { Queryable, SqlValue } from '../../infra/db/database.js';
import { attachmentHref } from './attachment-files.js';

type SummaryRow = {
  id: number;
  organization_id: number;
  organization_name: string;
  subject: string;
  status: TicketStatus;
  priority: TicketPriority;
  requester_name: string;
  assignee_id: number | null;
  assignee_username: string | null;
  created_at: Date;
  updated_at: Date;
  total: number;
};

const summaryColumns = `t."id", o."id" AS "organization_id", o."name" AS "organization_name",
  t."subject", t."status", t."priority", t."requester_name",
  a."id" AS "assignee_id", a."username" AS "assignee_username", t."created_at", t."updated_at"`;

const summaryFrom = `FROM "support_ticket" t
  JOIN "organization" o ON o."id" = t."organization"
  LEFT JOIN "user" a ON a."id" = t."assignee"`;

const summaryOf = (row: SummaryRow): TicketSummary => ({
  id: row.id,
  organization: { id: row.organization_id, name: row.organization_name },
  subject: row.subject,
  status: row.status,
  priority: row.priority,
  requester: row.requester_name,
  assignee:
    row.assignee_id === null || row.assignee_username === null
      ? null
      : { id: row.assignee_id, username: row.assignee_username },
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

export type TicketFilter = {
  organization?: number;
  status?: TicketStatus;
  assignee?: number | 'none';
  search?: string;
  limit: number;
  offset: number;
};

// A page of tickets, most recently changed first. Callers decide visibility: the organization
// page passes its organization, the queue passes what the agent filtered on.
export const ticketPage = async (db: Queryable, filter: TicketFilter): Promise<TicketPage> => {
  const values: SqlValue[] = [];
  const conditions: string[] = [];
  const add = (value: SqlValue): string => {
    values.push(value);
    return `$${values.length}`;
  };
  if (filter.organization !== undefined) {
    conditions.push(`t."organization" = ${add(filter.organization)}`);
  }
  if (filter.status !== undefined) conditions.push(`t."status" = ${add(filter.status)}`);
  if (filter.assignee === 'none') conditions.push('t."assignee" IS NULL');
  else if (filter.assignee !== undefined) {
    conditions.push(`t."assignee" = ${add(filter.assignee)}`);
  }
  if (filter.search !== undefined && filter.search !== '') {
    const pattern = add(`%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    conditions.push(
      `(t."subject" ILIKE ${pattern} OR t."requester_name" ILIKE ${pattern} OR o."name" ILIKE ${pattern})`,
    );
  }
  const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
  const { rows } = await db.query<SummaryRow>(
    `SELECT ${summaryColumns}, count(*) OVER ()::integer AS "total" ${summaryFrom} ${where}
      ORDER BY t."updated_at" DESC, t."id" DESC
      LIMIT ${add(filter.limit)} OFFSET ${add(filter.offset)}`,
    values,
  );
  return { total: rows[0]?.total ?? 0, tickets: rows.map(summaryOf) };
};

export const ticketOrganization = async (
  db: Queryable,
  ticketId: number,
): Promise<number | undefined> => {
  const { rows } = await db.query<{ organization: number }>(
    'SELECT "organization" FROM "support_ticket" WHERE "id" = $1',
    [ticketId],
  );
  return rows[0]?.organization;
};

type MessageRow = {
  id: number;
  author_name: string;
  is_from_agent: boolean;
  body: string;
  created_at: Date;
  attachments: {
    id: number;
    file_uuid: string;
    file_name: string;
    content_type: string;
    size: number;
  }[];
};

export const ticketDetail = async (
  db: Queryable,
  ticketId: number,
  origin: string,
): Promise<TicketDetail | undefined> => {
  const { rows } = await db.query<
    SummaryRow & { cc: string[]; custom_fields: TicketDetail['customFields'] }
  >(
    `SELECT ${summaryColumns}, t."cc", t."custom_fields", 1 AS "total" ${summaryFrom} WHERE t."id" = $1`,
    [ticketId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const messages = await db.query<MessageRow>(
    `SELECT m."id", m."author_name", m."is_from_agent", m."body", m."created_at",
            coalesce((SELECT json_agg(json_build_object('id', f."id", 'file_uuid', f."file_uuid",
                        'file_name', f."file_name", 'content_type', f."content_type", 'size', f."size")
                        ORDER BY f."id")
                        FROM "support_attachment" f WHERE f."message" = m."id"), '[]') AS "attachments"
       FROM "support_ticket_message" m WHERE m."ticket" = $1 ORDER BY m."id"`,
    [ticketId],
  );
  return {
    ...summaryOf(row),
    cc: row.cc,
    customFields: row.custom_fields,
    messages: messages.rows.map((message) => ({
      id: message.id,
      author: message.author_name,
      fromAgent: message.is_from_agent,
      body: message.body,
      createdAt: message.created_at.toISOString(),
      attachments: message.attachments.map((file): TicketAttachment => ({
        id: file.id,
        file_name: file.file_name,
        content_type: file.content_type,
        size: file.size,
        content_url: attachmentHref(origin, file.file_uuid, file.file_name),
      })),
    })),
  };
};
