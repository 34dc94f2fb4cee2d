import type { Queryable } from '../../infra/db/database.js';
import { composeMail } from '../mail/mail-compose.js';
import { queueMail } from '../mail/mail-message.js';

export const emailChangeNoticeSubject = 'Your Flotilla e-mail address is changing';

// Queues, in the caller's transaction, a notice to the address an account is leaving: whoever
// holds that mailbox learns of the change (and of the way back, a password reset) even when the
// change was not theirs.
export const queueEmailChangeNotice = async (
  tx: Queryable,
  publicUrl: string,
  change: { from: string; to: string; pending: boolean },
): Promise<void> => {
  await queueMail(
    tx,
    composeMail({
      to: change.from,
      subject: emailChangeNoticeSubject,
      paragraphs: [
        'Hello,',
        change.pending
          ? `The e-mail address of your Flotilla account is being changed to ${change.to}. It changes once that address is verified.`
          : `The e-mail address of your Flotilla account was changed to ${change.to}.`,
        'If you did not ask for this, reset your password now: the change needed it.',
      ],
      action: { label: 'Reset your password', url: `${publicUrl}/password-reset` },
    }),
  );
};
