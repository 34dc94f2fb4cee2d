import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

// What the catcher writes per message (one JSON file each), read by support/mailbox.ts.
export type SavedMail = { to: string[]; subject: string; text: string; html: string };

// A real SMTP server (the smtp-server package) on a free loopback port for the browser tests'
// server, which runs in vitest's global setup: each message it accepts is written to `dir`, where
// the tests (other processes) read it. (The server's own tests keep theirs in memory:
// server/src/test-support/test-smtp-server.ts; the global setup cannot load that source file.)
export const startMailCatcher = async (
  dir: string,
): Promise<{ url: string; close: () => Promise<void> }> => {
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          count += 1;
          const saved: SavedMail = {
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          };
          // Written whole under another name, then renamed: a reader never sees half a file.
          const file = path.join(dir, `${count}.json`);
          writeFileSync(`${file}.part`, JSON.stringify(saved));
          renameSync(`${file}.part`, file);
          callback();
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
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
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
