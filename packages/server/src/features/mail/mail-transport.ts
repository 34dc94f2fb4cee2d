import nodemailer from 'nodemailer';

// A message as the dispatcher hands it to a transport.
export type OutgoingMail = {
  id: number;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  links: readonly string[];
};

// Where mail goes: an SMTP server, or the built-in outbox (the mail_message table itself, read by
// platform administrators in the console, each message's links printed in the server log).
export type MailTransport = {
  kind: 'smtp' | 'outbox';
  // Throws when the message could not be handed over (it is then retried).
  deliver(message: OutgoingMail): Promise<void>;
  close(): void;
};

export type MailLog = { warn(details: object, message: string): void };

// SMTP through nodemailer: one multipart/alternative message (text and HTML) per mail.
export const createSmtpTransport = (smtpUrl: string, from: string): MailTransport => {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async deliver(message) {
      await transporter.sendMail({
        from,
        to: message.recipient,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    },
    close: () => transporter.close(),
  };
};

// Without SMTP the message stays in the outbox; its links go to the log, at warn so that the
// operator sees them at every usual log level, and a fresh `npm start` can complete every flow
// from the terminal too. This is the only place links are logged: with SMTP they never are.
export const createOutboxTransport = (log: MailLog): MailTransport => ({
  kind: 'outbox',
  deliver(message) {
    log.warn(
      { mailId: message.id, to: message.recipient, subject: message.subject, links: message.links },
      `Mail kept in the outbox (no SMTP configured): "${message.subject}" to ${message.recipient}: ${message.links.join(' ')}`,
    );
    return Promise.resolve();
  },
  close: () => undefined,
});
