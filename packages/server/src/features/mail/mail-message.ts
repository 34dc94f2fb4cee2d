import type { Queryable } from '../../infra/db/database.js';

// One message, as every mail of the product is written: a plain-text and an HTML body saying the
// same, and the links it carries (listed on the outbox page and in the server log).
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: readonly string[];
};

// Writes the message in the caller's transaction: it exists only if what it announces commits,
// and the dispatcher of some process delivers it right after (mail-dispatcher.ts).
export const queueMail = async (tx: Queryable, message: MailMessage): Promise<number> => {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO "mail_message" ("recipient", "subject", "text_body", "html_body", "links")
     VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING "id"`,
    [message.to, message.subject, message.text, message.html, JSON.stringify(message.links)],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('mail_message insert returned no id');
  return id;
};
