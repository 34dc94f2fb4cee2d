import type { Queryable } from '../../infra/db/database.js';
import type { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { composeMail } from '../mail/mail-compose.js';
import { queueMail } from '../mail/mail-message.js';

// Reply mails per ticket per hour: an agent answering in bursts still reaches the requester, a
// runaway client cannot turn the desk into a mail relay.
export const replyMailsPerTicketPerHour = 20;

export type ReplyMail = {
  ticketId: number;
  organizationId: number;
  subject: string;
  agentName: string;
  body: string;
  consoleUrl: string;
};

// Mails an agent's reply to the requester and the ticket's cc list, in the transaction that
// writes the reply (so a rolled-back reply sends nothing), counted in the mail rate limits.
export const mailAgentReply = async (
  tx: Queryable,
  limiter: RateLimiter,
  reply: ReplyMail,
): Promise<number> => {
  const { rows } = await tx.query<{ email: string | null; cc: string[] }>(
    `SELECT u."email", t."cc" FROM "support_ticket" t
       LEFT JOIN "user" u ON u."id" = t."requester" WHERE t."id" = $1`,
    [reply.ticketId],
  );
  const row = rows[0];
  if (!row) return 0;
  const recipients = [...new Set([...(row.email ? [row.email] : []), ...row.cc])];
  if (recipients.length === 0) return 0;
  await limiter.take([
    {
      key: `support-reply-mail:ticket:${reply.ticketId}`,
      limit: replyMailsPerTicketPerHour,
      windowMs: 3_600_000,
    },
  ]);
  for (const to of recipients) {
    await queueMail(
      tx,
      composeMail({
        to,
        subject: `Re: [Ticket #${reply.ticketId}] ${reply.subject}`,
        paragraphs: [
          `Support answered your ticket #${reply.ticketId}.`,
          { author: reply.agentName, text: reply.body },
        ],
        action: {
          label: 'View the ticket',
          url: `${reply.consoleUrl}/orgs/${reply.organizationId}/support/${reply.ticketId}`,
        },
      }),
    );
  }
  return recipients.length;
};
