import { invitationLifetimeDays } from '@flotilla/shared/constants/limits';
import { roleLabel } from '@flotilla/shared/permissions/role-labels';
import type { Queryable } from '../../infra/db/database.js';
import { composeMail, neutraliseLinks } from '../mail/mail-compose.js';
import { queueMail } from '../mail/mail-message.js';
import type { InvitationSigner } from './invitation-signing.js';
import type { InvitationTable } from './invitation-kinds.js';

export type InvitationMailDeps = {
  signer: InvitationSigner;
  // The console's address for the link (FLOTILLA_PUBLIC_URL or the listening address).
  publicUrl: () => string;
};

type InvitationRow = {
  token_id: string;
  target_name: string;
  role: string;
  message: string | null;
  identifier: string;
  inviter: string | null;
};

// Signs the invitation's token and queues its mail in the transaction that created it.
export const queueInvitationMail = async (
  tx: Queryable,
  table: InvitationTable,
  invitationId: number,
  recipient: string,
  now: Date,
  deps: InvitationMailDeps,
): Promise<void> => {
  const { rows } = await tx.query<InvitationRow>(
    `SELECT i."token_id", t."${table.targetName}" AS "target_name", r."name" AS "role", i."message",
            e."email" AS "identifier", u."username" AS "inviter"
       FROM "${table.resource}" i
       JOIN "${table.targetTable}" t ON t."id" = i."${table.targetColumn}"
       JOIN "${table.roleColumn}" r ON r."id" = i."${table.roleColumn}"
       JOIN "invitee" e ON e."id" = i."invitee"
       LEFT JOIN "user" u ON u."id" = i."is_created_by__user"
      WHERE i."id" = $1`,
    [invitationId],
  );
  const row = rows[0];
  if (!row) throw new Error(`invitation ${invitationId} vanished before its mail was written`);
  const expiresAt = new Date(now.getTime() + invitationLifetimeDays * 24 * 3600 * 1000);
  const token = deps.signer.sign({
    kind: table.kind,
    tokenId: row.token_id,
    name: row.target_name,
    email: row.identifier.includes('@') ? row.identifier : null,
    exp: Math.floor(expiresAt.getTime() / 1000),
  });
  const inviter = row.inviter ?? 'Someone';
  // The organization or fleet name is the inviter's text too: no link in it either.
  const target = neutraliseLinks(row.target_name);
  const paragraphs = [
    `Hello,`,
    `${inviter} invited you to join the ${table.noun} "${target}" on Flotilla as ${roleLabel(row.role)}.`,
    // Quoted as the inviter's own words (not ours), links neutralised (mail-compose.ts).
    ...(row.message ? [{ author: inviter, text: row.message }] : []),
    row.identifier.includes('@')
      ? `Open the link to accept. If you have no Flotilla account yet, you can create one there with this e-mail address.`
      : `Open the link and sign in as ${row.identifier} to accept.`,
  ];
  await queueMail(
    tx,
    composeMail({
      to: recipient,
      subject: `${inviter} invited you to the ${table.noun} ${target} on Flotilla`,
      paragraphs,
      action: {
        label: 'Accept the invitation',
        url: `${deps.publicUrl()}${table.acceptPath}${token}`,
      },
      footer: `The invitation expires on ${expiresAt.toUTCString()}. If you did not expect it, you can ignore this message.`,
    }),
  );
};
