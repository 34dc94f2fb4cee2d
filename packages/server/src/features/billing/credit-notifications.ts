import type { Queryable } from '../../infra/db/database.js';
import { composeMail } from '../mail/mail-compose.js';
import { queueMail } from '../mail/mail-message.js';
import { creditBalance } from './credit-ledger.js';

type NotificationRow = {
  id: number;
  organization: number;
  organization_name: string;
  threshold: number;
  was_sent_at: Date | null;
};

const administratorEmails = async (db: Queryable, organization: number): Promise<string[]> => {
  const { rows } = await db.query<{ email: string }>(
    `SELECT DISTINCT u."email" FROM "organization_membership" m
     JOIN "organization_membership_role" r ON r."id" = m."organization_membership_role"
     JOIN "user" u ON u."id" = m."user"
     WHERE m."is_member_of__organization" = $1 AND r."name" = 'administrator' AND u."email" IS NOT NULL`,
    [organization],
  );
  return rows.map((row) => row.email);
};

// Mails an organization's administrators once when its credit balance falls below a threshold it
// set, and rearms the notification when the balance is back at or above it. Returns the number of
// mails queued.
export const notifyLowCredits = async (
  db: Queryable,
  now: Date,
  consoleUrl: string,
): Promise<number> => {
  const { rows } = await db.query<NotificationRow>(
    `SELECT n."id", n."organization", o."name" AS "organization_name",
       n."is_sent_when_below__threshold" AS "threshold", n."was_sent_at"
     FROM "organization_credit_notification" n JOIN "organization" o ON o."id" = n."organization"
     ORDER BY n."id"`,
  );
  let queued = 0;
  for (const row of rows) {
    const balance = await creditBalance(db, row.organization, now);
    if (balance >= row.threshold) {
      if (row.was_sent_at !== null) {
        await db.query(
          `UPDATE "organization_credit_notification" SET "was_sent_at" = NULL WHERE "id" = $1`,
          [row.id],
        );
      }
      continue;
    }
    if (row.was_sent_at !== null) continue;
    for (const to of await administratorEmails(db, row.organization)) {
      await queueMail(
        db,
        composeMail({
          to,
          subject: `${row.organization_name}: credits are running low`,
          paragraphs: [
            `${row.organization_name} has ${balance} credits left, below the ${row.threshold} you asked to be told about.`,
            'Devices over the plan allowance use one credit a month each; without credits they are billed on the next invoice.',
          ],
          action: {
            label: 'Add credits',
            url: `${consoleUrl}/orgs/${row.organization}/credits`,
          },
        }),
      );
      queued += 1;
    }
    await db.query(
      `UPDATE "organization_credit_notification" SET "was_sent_at" = $2 WHERE "id" = $1`,
      [row.id, now],
    );
  }
  return queued;
};
