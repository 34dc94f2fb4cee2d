import type { Database } from '../../infra/db/database.js';
import type { MailTransport, OutgoingMail } from './mail-transport.js';

// Attempts per message, and the wait before each retry after a failed one.
export const mailRetryDelaysMs = [30_000, 120_000, 600_000, 1_800_000] as const;
const maxAttempts = mailRetryDelaysMs.length + 1;

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

// Claims queued messages one at a time (FOR UPDATE SKIP LOCKED: several processes share the work
// and never send one twice), hands each to the transport, and records the outcome: sent (SMTP),
// stored (the outbox), or a retry later; after the last attempt, failed.
export const createMailDispatcher = (
  db: Database,
  transport: MailTransport,
  log: DispatcherLog,
): MailDispatcher => {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;

  const deliverOne = (): Promise<boolean> =>
    db.transaction(async (tx) => {
      const { rows } = await tx.query<Row>(
        `SELECT "id", "recipient", "subject", "text_body", "html_body", "links", "attempts"
           FROM "mail_message"
          WHERE "status" = 'queued' AND "next_attempt_at" <= now()
          ORDER BY "id" LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      const row = rows[0];
      if (!row) return false;
      const message: OutgoingMail = {
        id: row.id,
        recipient: row.recipient,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        links: row.links,
      };
      try {
        await transport.deliver(message);
        await tx.query(
          `UPDATE "mail_message" SET "status" = $2, "attempts" = "attempts" + 1,
                  "delivered_at" = now(), "last_error" = NULL WHERE "id" = $1`,
          [row.id, transport.kind === 'smtp' ? 'sent' : 'stored'],
        );
      } catch (error) {
        const attempts = row.attempts + 1;
        const delay = mailRetryDelaysMs[attempts - 1];
        log.warn(
          { err: error, mailId: row.id, attempts },
          `Mail ${row.id} to ${row.recipient} could not be sent`,
        );
        await tx.query(
          `UPDATE "mail_message" SET "attempts" = $2::integer, "last_error" = $3::text,
                  "status" = CASE WHEN $2::integer >= $4::integer THEN 'failed' ELSE 'queued' END,
                  "next_attempt_at" = now() + make_interval(secs => $5::double precision / 1000)
            WHERE "id" = $1::integer`,
          [row.id, attempts, errorText(error), maxAttempts, delay ?? 0],
        );
      }
      return true;
    });

  const wakeIn = (ms: number): void => {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = undefined;
    if (stopped) return;
    retryTimer = setTimeout(kick, Math.max(ms, 0) + 50);
    retryTimer.unref();
  };

  // The next retry that is due: wake up then.
  const scheduleRetry = async (): Promise<void> => {
    const { rows } = await db.query<{ wait_ms: number | null }>(
      `SELECT (extract(epoch FROM min("next_attempt_at") - now()) * 1000)::float8 AS "wait_ms"
         FROM "mail_message" WHERE "status" = 'queued'`,
    );
    const wait = rows[0]?.wait_ms;
    if (wait === null || wait === undefined) return;
    wakeIn(wait);
  };

  const run = async (): Promise<void> => {
    while (!stopped && (await deliverOne())) {
      // One message per transaction, until none is due.
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
