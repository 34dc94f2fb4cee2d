import type { Queryable } from '../../infra/db/database.js';
import { redactLinks } from './mail-redaction.js';

// How often the outbox is swept of messages past FLOTILLA_MAIL_OUTBOX_RETENTION_HOURS.
export const mailSweepIntervalMs = 3_600_000;

const redactBatch = 200;

export type MailSweep = { deleted: number; redacted: number };

// Deletes every message created before `cutoff` (one being delivered right now aside: its
// dispatcher records the outcome), and removes the links of delivered or failed messages that
// still hold them (written before links were removed on delivery).
export const sweepMailOutbox = async (db: Queryable, cutoff: Date): Promise<MailSweep> => {
  const deleted = await db.query(
    `DELETE FROM "mail_message" WHERE "created_at" < $1 AND "status" <> 'sending'`,
    [cutoff],
  );
  const { rows } = await db.query<{
    id: number;
    text_body: string;
    html_body: string;
    links: string[];
  }>(
    `SELECT "id", "text_body", "html_body", "links" FROM "mail_message"
      WHERE "status" IN ('sent', 'failed') AND "redacted_at" IS NULL ORDER BY "id" LIMIT $1`,
    [redactBatch],
  );
  for (const row of rows) {
    await db.query(
      `UPDATE "mail_message" SET "text_body" = $2, "html_body" = $3, "links" = '[]'::jsonb,
              "redacted_at" = now()
        WHERE "id" = $1 AND "redacted_at" IS NULL`,
      [row.id, redactLinks(row.text_body, row.links), redactLinks(row.html_body, row.links)],
    );
  }
  return { deleted: deleted.rowCount, redacted: rows.length };
};
