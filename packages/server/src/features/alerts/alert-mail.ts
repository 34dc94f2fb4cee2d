import type { Queryable } from '../../infra/db/database.js';
import { composeMail } from '../mail/mail-compose.js';
import { queueMail } from '../mail/mail-message.js';
import type { StoredRule } from './alert-conditions.js';

export type DueAlert = {
  id: number;
  status: 'firing' | 'resolved';
  detail: string;
  deviceName: string;
  uuid: string;
};

// Devices named in one mail; the rest are counted.
const listedPerMail = 30;

const line = (alert: DueAlert): string =>
  `${alert.status === 'firing' ? 'Firing' : 'Resolved'}: ${alert.deviceName} (${alert.uuid.slice(0, 7)}) – ${alert.detail}`;

// One mail per administrator of the rule's organization for what a sweep found due on one rule
// (new alerts, reminders and resolutions together), queued in the sweep's transaction.
export const queueAlertMail = async (
  tx: Queryable,
  rule: StoredRule,
  due: readonly DueAlert[],
  publicUrl: string,
): Promise<number> => {
  const first = due[0];
  if (!first) return 0;
  const { rows } = await tx.query<{ email: string }>(
    `SELECT u."email" FROM "organization_membership" m
       JOIN "organization_membership_role" r ON r."id" = m."organization_membership_role"
       JOIN "user" u ON u."id" = m."user"
      WHERE m."is_member_of__organization" = $1 AND r."name" = 'administrator'
      ORDER BY u."email"`,
    [rule.organization],
  );
  const firing = due.filter((alert) => alert.status === 'firing').length;
  const subject =
    firing > 0
      ? `${rule.name}: ${firing} device${firing === 1 ? '' : 's'} alerting`
      : `${rule.name}: resolved on ${due.length} device${due.length === 1 ? '' : 's'}`;
  const listed = due.slice(0, listedPerMail).map(line);
  const more = due.length - listed.length;
  for (const { email } of rows) {
    await queueMail(
      tx,
      composeMail({
        to: email,
        subject,
        paragraphs: [
          `The alert rule "${rule.name}" of your organization:`,
          ...listed,
          ...(more > 0 ? [`And ${more} more.`] : []),
        ],
        action: { label: 'Open the first device', url: `${publicUrl}/devices/${first.uuid}` },
        footer: 'Administrators of the organization get these mails; a rule can be silenced.',
      }),
    );
  }
  return rows.length;
};
