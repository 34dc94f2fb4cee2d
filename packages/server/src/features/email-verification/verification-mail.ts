import { emailVerificationPath } from '@flotilla/shared/auth/account-mail';
import type { Queryable } from '../../infra/db/database.js';
import { composeMail } from '../mail/mail-compose.js';
import { queueMail } from '../mail/mail-message.js';
import {
  type VerificationSigner,
  type VerificationState,
  verificationStateColumns,
} from './verification-token.js';

export type VerificationMailDeps = {
  signer: VerificationSigner;
  // The console's address for the link (FLOTILLA_PUBLIC_URL or the listening address).
  publicUrl: () => string;
};

// Queues, in the caller's transaction, the mail whose link verifies `email` for the user: the
// account's address after sign-up, or a new address waiting to replace it. The link is signed for
// the account as the transaction has left it.
export const queueVerificationMail = async (
  tx: Queryable,
  deps: VerificationMailDeps,
  mail: { userId: number; email: string; now: Date; change: boolean },
): Promise<void> => {
  const { rows } = await tx.query<VerificationState>(
    `SELECT ${verificationStateColumns} FROM "user" WHERE "id" = $1`,
    [mail.userId],
  );
  const state = rows[0];
  if (!state) throw new Error(`no user ${mail.userId} to verify`);
  const { token, expiresAt } = deps.signer.sign(mail.userId, mail.email, state, mail.now);
  await queueMail(
    tx,
    composeMail({
      to: mail.email,
      subject: 'Verify your e-mail address for Flotilla',
      paragraphs: [
        'Hello,',
        mail.change
          ? `Open the link to confirm ${mail.email} as the new e-mail address of your Flotilla account. Until then your account keeps its current address.`
          : `Open the link to confirm ${mail.email} as the e-mail address of your Flotilla account.`,
      ],
      action: {
        label: 'Verify e-mail address',
        url: `${deps.publicUrl()}${emailVerificationPath(token, mail.email)}`,
      },
      footer: `The link works until ${expiresAt.toUTCString()}. If you did not expect this message, ignore it.`,
    }),
  );
};
