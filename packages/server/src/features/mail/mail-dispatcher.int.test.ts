import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test-support/test-smtp-server.js';
import { composeMail } from './mail-compose.js';
import { createMailDispatcher, type MailDispatcher } from './mail-dispatcher.js';
import { queueMail } from './mail-message.js';
import { redactedLink } from './mail-redaction.js';
import { createOutboxTransport, createSmtpTransport } from './mail-transport.js';

let db: Database;
let smtp: TestSmtpServer;
const dispatchers: MailDispatcher[] = [];

// Every line the dispatcher and transports log, as text.
const logged: string[] = [];
const log = {
  warn: (details: object, message: string) =>
    logged.push(`warn ${JSON.stringify(details)} ${message}`),
  error: (details: object, message: string) =>
    logged.push(`error ${JSON.stringify(details)} ${message}`),
};

const resetLink = 'https://flotilla.example.com/user/reset-password/secret-code_123';

const queueReset = (to: string): Promise<number> =>
  queueMail(
    db,
    composeMail({
      to,
      subject: 'Reset your Flotilla password',
      paragraphs: ['Hello,'],
      action: { label: 'Choose a new password', url: resetLink },
    }),
  );

type Stored = {
  status: string;
  text_body: string;
  html_body: string;
  links: string[];
  redacted_at: Date | null;
};

const stored = async (id: number): Promise<Stored | undefined> =>
  (
    await db.query<Stored>(
      `SELECT "status", "text_body", "html_body", "links", "redacted_at" FROM "mail_message"
        WHERE "id" = $1`,
      [id],
    )
  ).rows[0];

const smtpDispatcher = (): MailDispatcher => {
  const dispatcher = createMailDispatcher(
    db,
    createSmtpTransport(smtp.url, 'Flotilla <noreply@flotilla.test>'),
    log,
  );
  dispatchers.push(dispatcher);
  return dispatcher;
};

beforeAll(async () => {
  db = await createTestDatabase();
  smtp = await startTestSmtpServer();
});

afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.stop()));
  logged.length = 0;
});

afterAll(async () => {
  await smtp.close();
  await db.close();
});

describe('mail dispatcher', () => {
  it('holds no row lock while the SMTP server hangs: the message row can be changed meanwhile', async () => {
    const hold = smtp.hold();
    const id = await queueReset('hang@example.com');
    const dispatcher = smtpDispatcher();
    dispatcher.kick();
    await hold.reached;
    try {
      // NOWAIT: a lock held by the dispatcher would fail this at once instead of waiting.
      await db.transaction(async (tx) => {
        await tx.query('SELECT 1 FROM "mail_message" WHERE "id" = $1 FOR UPDATE NOWAIT', [id]);
        await tx.query(`UPDATE "mail_message" SET "subject" = "subject" || ' ' WHERE "id" = $1`, [
          id,
        ]);
      });
      expect((await stored(id))?.status).toBe('sending');
    } finally {
      hold.release();
    }
    await smtp.mailTo('hang@example.com');
    await dispatcher.idle();
    expect((await stored(id))?.status).toBe('sent');
  });

  it('keeps no usable link once SMTP delivered the message, and logs none', async () => {
    const id = await queueReset('ada@example.com');
    const dispatcher = smtpDispatcher();
    dispatcher.kick();
    const mail = await smtp.mailTo('ada@example.com');
    expect(mail.parsed.text).toContain(resetLink);
    await dispatcher.idle();
    const row = await stored(id);
    expect(row).toMatchObject({ status: 'sent', links: [] });
    expect(row?.redacted_at).toBeInstanceOf(Date);
    expect(row?.text_body).not.toContain('secret-code_123');
    expect(row?.html_body).not.toContain('secret-code_123');
    expect(row?.text_body).toContain(`Choose a new password: ${redactedLink}`);
    expect(logged.join('\n')).not.toContain('secret-code_123');
  });

  it('removes the links of a message given up after its last attempt', async () => {
    const id = await queueReset('nobody@example.com');
    await db.query(`UPDATE "mail_message" SET "attempts" = 4 WHERE "id" = $1`, [id]);
    const dispatcher = createMailDispatcher(
      db,
      {
        kind: 'smtp',
        deliver: () => Promise.reject(new Error('550 mailbox unavailable')),
        close: () => undefined,
      },
      log,
    );
    dispatchers.push(dispatcher);
    dispatcher.kick();
    await expect.poll(async () => (await stored(id))?.status).toBe('failed');
    const row = await stored(id);
    expect(row?.links).toEqual([]);
    expect(row?.text_body).not.toContain('secret-code_123');
    expect(logged.join('\n')).not.toContain('secret-code_123');
  });

  it('retries a message whose claim lapsed (its process died mid-delivery)', async () => {
    const id = await queueReset('retry@example.com');
    await db.query(
      `UPDATE "mail_message" SET "status" = 'sending', "attempts" = 1,
              "next_attempt_at" = now() - interval '1 second' WHERE "id" = $1`,
      [id],
    );
    const dispatcher = smtpDispatcher();
    dispatcher.kick();
    await smtp.mailTo('retry@example.com');
    await dispatcher.idle();
    expect((await stored(id))?.status).toBe('sent');
  });

  it('without SMTP keeps the link in the outbox and logs it at warn, seen at the default level', async () => {
    const id = await queueReset('outbox@example.com');
    const dispatcher = createMailDispatcher(db, createOutboxTransport(log), log);
    dispatchers.push(dispatcher);
    dispatcher.kick();
    await dispatcher.idle();
    expect(await stored(id)).toMatchObject({ status: 'stored', links: [resetLink] });
    expect(
      logged.filter((line) => line.startsWith('warn') && line.includes(resetLink)),
    ).toHaveLength(1);
  });
});
