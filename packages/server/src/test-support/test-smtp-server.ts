import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

// A received message, parsed as a mail client would.
export type ReceivedMail = {
  // The SMTP envelope's recipients.
  to: string[];
  parsed: ParsedMail;
  raw: string;
};

export type TestSmtpServer = {
  // smtp://127.0.0.1:<port>, for FLOTILLA_SMTP_URL.
  url: string;
  received: readonly ReceivedMail[];
  // Resolves with the first message (already received or still to come) to that address, and
  // with a subject matching `subject` when given (an account gets other mail too).
  mailTo(
    address: string,
    options?: { subject?: RegExp; timeoutMs?: number },
  ): Promise<ReceivedMail>;
  // Makes the server hang on the next message: it reads it and answers nothing until released, as
  // a slow or stuck mail server would. `reached` resolves once the message has arrived.
  hold(): SmtpHold;
  close(): Promise<void>;
};

export type SmtpHold = { reached: Promise<void>; release(): void };

// A real SMTP server (the smtp-server package) on a free loopback port, without TLS or
// authentication, keeping every message it accepts: tests deliver mail through SMTP and assert
// on what arrived.
export const startTestSmtpServer = async (): Promise<TestSmtpServer> => {
  const received: ReceivedMail[] = [];
  type Wanted = { address: string; subject: RegExp | undefined };
  const waiters: (Wanted & { resolve: (mail: ReceivedMail) => void })[] = [];
  const matches = (mail: ReceivedMail, wanted: Wanted): boolean =>
    mail.to.some((to) => to.toLowerCase() === wanted.address.toLowerCase()) &&
    (wanted.subject === undefined || wanted.subject.test(mail.parsed.subject ?? ''));
  let held: { arrived: () => void; released: Promise<void> } | undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const hold = held;
        held = undefined;
        hold?.arrived();
        Promise.resolve(hold?.released)
          .then(() => simpleParser(raw))
          .then(
            (parsed) => {
              const mail: ReceivedMail = {
                to: session.envelope.rcptTo.map((recipient) => recipient.address),
                parsed,
                raw,
              };
              received.push(mail);
              for (const waiter of [...waiters]) {
                if (!matches(mail, waiter)) continue;
                waiters.splice(waiters.indexOf(waiter), 1);
                waiter.resolve(mail);
              }
              callback();
            },
            (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
          );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('SMTP server not on TCP');
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    mailTo(to, { subject, timeoutMs = 20_000 } = {}) {
      const wanted = { address: to, subject };
      const found = received.find((mail) => matches(mail, wanted));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          ...wanted,
          resolve: (mail: ReceivedMail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no mail to ${to} arrived within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    hold() {
      let arrived = (): void => undefined;
      let release = (): void => undefined;
      const reached = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      held = { arrived, released };
      return { reached, release };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
