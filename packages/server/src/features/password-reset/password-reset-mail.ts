import { passwordResetPath } from '@flotilla/shared/auth/account-mail';
import type { Queryable } from '../../infra/db/database.js';
import { composeMail } from '../mail/mail-compose.js';
import { queueMail } from '../mail/mail-message.js';

// The reset mail, queued in the transaction that stored its code.
export const queuePasswordResetMail = async (
  tx: Queryable,
  mail: { to: string; code: string; expiresAt: Date; publicUrl: string },
): Promise<void> => {
  await queueMail(
    tx,
    composeMail({
      to: mail.to,
      subject: 'Reset your Flotilla password',
      paragraphs: [
        'Hello,',
        `Someone, hopefully you, asked to reset the password of the Flotilla account ${mail.to}. Open the link to choose a new one; every session of the account is then logged out.`,
      ],
      action: {
        label: 'Choose a new password',
        url: `${mail.publicUrl}${passwordResetPath(mail.code)}`,
      },
      footer: `The link works once, until ${mail.expiresAt.toUTCString()}. If you did not ask for it, ignore this message: your password stays as it is.`,
    }),
  );
};
