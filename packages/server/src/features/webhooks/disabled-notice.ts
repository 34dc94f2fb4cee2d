import type { Queryable } from '../../infra/db/database.js';
import { composeMail } from '../mail/mail-compose.js';
import { queueMail } from '../mail/mail-message.js';
import type { EndpointDisabled } from './delivery-outcome.js';

export const disabledNoticeSubject = 'A Flotilla webhook was disabled';

// Mails every administrator of the organization, in the transaction that disables the endpoint.
export const disabledNotice =
  (publicUrl: () => string): EndpointDisabled =>
  async (tx: Queryable, endpoint) => {
    const { rows } = await tx.query<{ email: string; handle: string }>(
      `SELECT u."email", o."handle" FROM "organization_membership" m
         JOIN "organization_membership_role" r ON r."id" = m."organization_membership_role"
         JOIN "user" u ON u."id" = m."user"
         JOIN "organization" o ON o."id" = m."is_member_of__organization"
        WHERE m."is_member_of__organization" = $1 AND r."name" = 'administrator'`,
      [endpoint.organization],
    );
    for (const row of rows) {
      await queueMail(
        tx,
        composeMail({
          to: row.email,
          subject: disabledNoticeSubject,
          paragraphs: [
            'Hello,',
            `The webhook of ${row.handle} that delivers to ${endpoint.url} kept failing and was disabled: it receives no more events until it is enabled again.`,
            endpoint.reason,
          ],
          action: {
            label: 'Open the webhooks',
            url: `${publicUrl()}/orgs/${endpoint.organization}/webhooks`,
          },
        }),
      );
    }
  };
