import type { Database } from '../../infra/db/database.js';
import { redactLinks } from './mail-redaction.js';
import type { MailTransport, OutgoingMail } from './mail-transport.js';

// Attempts per message, and the wait before each retry after a failed one.
export const mailRetryDelaysMs = [30_000, 120_000, 600_000, 1_800_000] as const;
const maxAttempts = mailRetryDelaysMs.length + 1;

// How long a claimed message is left to its dispatcher before another process takes it over (the
// first died mid-delivery): longer than nodemailer's own timeouts (10 minutes idle at most).
export const mailClaimLeaseMs = 15 * 60_000;

type Row = {
  id: number;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  links: string[];
  attempts: number;
};

export type MailDispatcher = {
  // Delivers every queued message that is due (a new one's notification, the start, a retry).
  kick(): void;
  // Resolves once no delivery is running (orderly shutdown, tests).
  idle(): Promise<void>;
  stop(): Promise<void>;
};

export type DispatcherLog = {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
};

const errorText = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).slice(0, 1000);

// Claims queued messages one at a time and hands each to the transport with no transaction open:
// the claim (status 'sending', FOR UPDATE SKIP LOCKED so that several processes share the work and
// never send one twice) commits before SMTP is spoken to, so a slow or hanging mail server holds
// no row lock. The outcome is recorded after: sent (SMTP; the links are then removed from the
// stored bodies), stored (the outbox keeps them), or a retry later; after the last attempt, failed
// (links removed too: nobody will receive them).
export const createMailDispatcher = (
  db: Database,
  transport: MailTransport,
  log: DispatcherLog,
): MailDispatcher => {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;

  const claim = async (): Promise<Row | undefined> => {
    const { rows } = await db.query<Row>(
      `UPDATE "mail_message" m SET "status" = 'sending', "attempts" = m."attempts" + 1,
              "next_attempt_at" = now() + make_interval(secs => $1::double precision / 1000)
        WHERE m."id" = (
          SELECT "id" FROM "mail_message"
           WHERE "status" IN ('queued', 'sending') AND "next_attempt_at" <= now()
           ORDER BY "id" LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING m."id", m."recipient", m."subject", m."text_body", m."html_body", m."links",
                  m."attempts"`,
      [mailClaimLeaseMs],
    );
    return rows[0];
  };

  const recordDelivered = async (row: Row): Promise<void> => {
    if (transport.kind === 'outbox') {
      await db.query(
        `UPDATE "mail_message" SET "status" = 'stored', "delivered_at" = now(), "last_error" = NULL
          WHERE "id" = $1 AND "status" = 'sending'`,
        [row.id],
      );
      return;
    }
    await db.query(
      `UPDATE "mail_message" SET "status" = 'sent', "delivered_at" = now(), "last_error" = NULL,
              "text_body" = $2, "html_body" = $3, "links" = '[]'::jsonb, "redacted_at" = now()
        WHERE "id" = $1 AND "status" = 'sending'`,
      [row.id, redactLinks(row.text_body, row.links), redactLinks(row.html_body, row.links)],
    );
  };

  const recordFailure = async (row: Row, error: unknown): Promise<void> => {
    log.warn(
      { err: error, mailId: row.id, attempts: row.attempts },
      `Mail ${row.id} to ${row.recipient} could not be sent`,
    );
    const delay = mailRetryDelaysMs[row.attempts - 1];
    if (row.attempts >= maxAttempts || delay === undefined) {
      await db.query(
        `UPDATE "mail_message" SET "status" = 'failed', "last_error" = $2::text,
                "text_body" = $3, "html_body" = $4, "links" = '[]'::jsonb, "redacted_at" = now()
          WHERE "id" = $1 AND "status" = 'sending'`,
        [
          row.id,
          errorText(error),
          redactLinks(row.text_body, row.links),
          redactLinks(row.html_body, row.links),
        ],
      );
      return;
    }
    await db.query(
      `UPDATE "mail_message" SET "status" = 'queued', "last_error" = $2::text,
              "next_attempt_at" = now() + make_interval(secs => $3::double precision / 1000)
        WHERE "id" = $1 AND "status" = 'sending'`,
      [row.id, errorText(error), delay],
    );
  };

  const deliverOne = async (): Promise<boolean> => {
    const row = await claim();
    if (!row) return false;
    const message: OutgoingMail = {
      id: row.id,
      recipient: row.recipient,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
      links: row.links,
    };
    let delivered = false;
    try {
      await transport.deliver(message);
      delivered = true;
    } catch (error) {
      await recordFailure(row, error);
    }
    if (delivered) await recordDelivered(row);
    return true;
  };

  const wakeIn = (ms: number): void => {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = undefined;
    if (stopped) return;
    retryTimer = setTimeout(kick, Math.max(ms, 0) + 50);
    retryTimer.unref();
  };

  // The next retry (or lapsed claim) that is due: wake up then.
  const scheduleRetry = async (): Promise<void> => {
    const { rows } = await db.query<{ wait_ms: number | null }>(
      `SELECT (extract(epoch FROM min("next_attempt_at") - now()) * 1000)::float8 AS "wait_ms"
         FROM "mail_message" WHERE "status" IN ('queued', 'sending')`,
    );
    const wait = rows[0]?.wait_ms;
    if (wait === null || wait === undefined) return;
    wakeIn(wait);
  };

  const run = async (): Promise<void> => {
    while (!stopped && (await deliverOne())) {
      // One message at a time, until none is due.
    }
    if (!stopped) await scheduleRetry();
  };

  function kick(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = run()
      .catch((error: unknown) => {
        // The database or a bug, not the message: try again a little later.
        log.error({ err: error }, 'Mail delivery failed');
        wakeIn(mailRetryDelaysMs[0]);
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  return {
    kick,
    async idle() {
      while (running) await running;
    },
    async stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      while (running) await running;
      transport.close();
    },
  };
};
