import type { Queryable } from '../../infra/db/database.js';
import { ApiError } from '../../infra/errors/api-error.js';
import type { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { composeMail } from '../mail/mail-compose.js';
import { queueMail } from '../mail/mail-message.js';

// New-ticket mails per organization per hour: a flood of tickets from one organization cannot
// turn the desk into a mail relay towards the agents; past it the tickets still wait in the queue.
export const newTicketMailsPerOrganizationPerHour = 20;

export type NewTicketMail = {
  ticketId: number;
  organizationId: number;
  subject: string;
  requesterName: string;
  body: string;
  consoleUrl: string;
};

// Tells every support agent with an address of a new ticket, in the transaction that creates it
// (a rolled-back ticket mails nobody), through the mail outbox. Answers how many were mailed.
export const mailAgentsNewTicket = async (
  tx: Queryable,
  limiter: RateLimiter,
  ticket: NewTicketMail,
): Promise<number> => {
  const { rows } = await tx.query<{ email: string }>(
    `SELECT DISTINCT u."email" FROM "user" u JOIN "user_platform_role" r ON r."user" = u."id"
      WHERE r."role" = 'support_agent' AND u."email" IS NOT NULL ORDER BY u."email"`,
  );
  if (rows.length === 0) return 0;
  try {
    await limiter.take([
      {
        key: `support-new-ticket-mail:organization:${ticket.organizationId}`,
        limit: newTicketMailsPerOrganizationPerHour,
        windowMs: 3_600_000,
      },
    ]);
  } catch (error) {
    // The ticket is saved either way: only the mail is held back.
    if (error instanceof ApiError && error.code === 'rate_limited') return 0;
    throw error;
  }
  for (const { email } of rows) {
    await queueMail(
      tx,
      composeMail({
        to: email,
        subject: `[Ticket #${ticket.ticketId}] ${ticket.subject}`,
        paragraphs: [
          `${ticket.requesterName} opened ticket #${ticket.ticketId}.`,
          { author: ticket.requesterName, text: ticket.body },
        ],
        action: {
          label: 'Open the ticket',
          url: `${ticket.consoleUrl}/admin/support/${ticket.ticketId}`,
        },
      }),
    );
  }
  return rows.length;
};
