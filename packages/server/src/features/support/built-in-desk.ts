import { randomBytes } from 'node:crypto';
import type { Database } from '../../infra/db/database.js';
import type { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { attachmentHref, writeAttachmentFile } from './attachment-files.js';
import type { SupportDesk } from './support-desk.js';
import { activeTicketFields, checkCustomFields } from './ticket-form.js';
import { mailAgentsNewTicket } from './new-ticket-mail.js';
import { createTicket } from './ticket-writes.js';

export type BuiltInDeskDeps = {
  db: Database;
  dataDir: string;
  origin: () => string;
  // The agents' new-ticket mails: their limit, and the console's address for the link.
  limiter: RateLimiter;
  consoleUrl: () => string;
};

// The help desk of the installation itself: tickets, messages and attachments in PostgreSQL and
// the data directory, worked by support agents in the Admin area.
export const createBuiltInDesk = (deps: BuiltInDeskDeps): SupportDesk => ({
  kind: 'built-in',
  ticketFields: () => activeTicketFields(deps.db),
  async uploadAttachment(organizationId, by, file, record) {
    const uuid = await writeAttachmentFile(deps.dataDir, file.bytes);
    const token = randomBytes(16).toString('hex');
    const { rows } = await deps.db.transaction(async (tx) => {
      const inserted = await tx.query<{ id: number }>(
        `INSERT INTO "support_attachment"
         ("token", "organization", "uploaded_by", "file_uuid", "file_name", "content_type", "size")
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING "id"`,
        [
          token,
          organizationId,
          by.userId,
          uuid,
          file.fileName,
          file.contentType,
          file.bytes.length,
        ],
      );
      await record(tx);
      return inserted;
    });
    const id = rows[0]?.id;
    if (id === undefined) throw new Error('support_attachment insert returned no id');
    return {
      upload: {
        token,
        attachment: {
          id,
          file_name: file.fileName,
          content_type: file.contentType,
          size: file.bytes.length,
          content_url: attachmentHref(deps.origin(), uuid, file.fileName),
        },
      },
    };
  },
  async submitTicket(organizationId, by, ticket, record) {
    const fields = await activeTicketFields(deps.db);
    const customFields = checkCustomFields(fields, ticket.custom_fields);
    return deps.db.transaction(async (tx) => {
      const id = await createTicket(tx, {
        organizationId,
        requester: { userId: by.userId, name: by.username, fromAgent: false },
        subject: ticket.subject,
        body: ticket.comment.body,
        uploads: ticket.comment.uploads,
        cc: ticket.email_ccs.map((cc) => cc.user_email.toLowerCase()),
        customFields,
        priority: ticket.priority,
      });
      await mailAgentsNewTicket(tx, deps.limiter, {
        ticketId: id,
        organizationId,
        subject: ticket.subject,
        requesterName: by.username,
        body: ticket.comment.body,
        consoleUrl: deps.consoleUrl(),
      });
      const { rows } = await tx.query<{ created_at: Date }>(
        'SELECT "created_at" FROM "support_ticket" WHERE "id" = $1',
        [id],
      );
      await record(tx);
      return {
        ticket: {
          id,
          subject: ticket.subject,
          status: 'new',
          priority: ticket.priority,
          created_at: (rows[0]?.created_at ?? new Date()).toISOString(),
        },
      };
    });
  },
});
