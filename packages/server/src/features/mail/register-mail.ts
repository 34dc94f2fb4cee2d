import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { NotificationBus } from '../../infra/db/notification-bus.js';
import { forbidden } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { registerPeriodicTask, type Schedule } from '../../infra/scheduling/periodic-task.js';
import { createMailDispatcher, type MailDispatcher } from './mail-dispatcher.js';
import { mailSweepIntervalMs, sweepMailOutbox } from './mail-retention.js';
import { createOutboxTransport, createSmtpTransport } from './mail-transport.js';

// The console's address as links in mail give it: FLOTILLA_PUBLIC_URL, else the address the
// server listens on (a loopback or wildcard address as localhost, as the start banner shows it).
export const publicUrlOf = (app: FastifyInstance, configured: string | undefined): string => {
  if (configured !== undefined) return configured;
  if (app.addresses().length === 0) return 'http://localhost';
  return app.listeningOrigin.replace(
    /\/\/(127\.0\.0\.1|\[::1\]|0\.0\.0\.0|\[::\]):/,
    '//localhost:',
  );
};

const outboxQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

type OutboxRow = {
  id: number;
  created_at: string;
  recipient: string;
  subject: string;
  text_body: string;
  links: string[];
  status: string;
  attempts: number;
  last_error: string | null;
};

// Mail delivery for the whole product (invitations, verification, password reset, e-mail
// changes): a dispatcher per process, woken by the flotilla_mail notification of each queued
// message (and once the LISTEN connection is up, for what was queued meanwhile); the outbox swept
// of messages older than FLOTILLA_MAIL_OUTBOX_RETENTION_HOURS when the server is ready and every
// hour; and the platform administrators' outbox: GET /admin/v1/mail.
export const registerMail = (
  app: FastifyInstance,
  ctx: AppContext,
  bus: NotificationBus,
  options: { schedule?: Schedule } = {},
): MailDispatcher => {
  const transport = ctx.config.smtpUrl
    ? createSmtpTransport(ctx.config.smtpUrl, ctx.config.mailFrom)
    : createOutboxTransport(app.log);
  const dispatcher = createMailDispatcher(ctx.db, transport, app.log);
  const retentionMs = ctx.config.mailOutboxRetentionHours * 3_600_000;
  let unsubscribe: (() => void) | undefined;
  app.addHook('onReady', () => {
    const subscription = bus.listen('flotilla_mail', () => dispatcher.kick());
    const stopWatching = bus.onStateChange((state) => {
      if (state === 'listening') dispatcher.kick();
    });
    unsubscribe = () => {
      subscription.close();
      stopWatching();
    };
    dispatcher.kick();
    return Promise.resolve();
  });
  registerPeriodicTask(app, {
    run: async () => {
      await sweepMailOutbox(ctx.db, new Date(ctx.now().getTime() - retentionMs));
    },
    intervalMs: mailSweepIntervalMs,
    firstRunMs: 0,
    // The next sweep tries again.
    failure: 'could not sweep the mail outbox; will retry',
    schedule: options.schedule,
  });
  app.addHook('onClose', async () => {
    unsubscribe?.();
    await dispatcher.stop();
  });

  app.get('/admin/v1/mail', { config: { access: 'user' } }, async (request) => {
    const actor = request.actor;
    if (actor.kind !== 'user' || !actor.platformPermissions.includes('admin.home')) {
      throw forbidden();
    }
    const query = parseBody(outboxQuery, request.query);
    const [{ rows }, count] = await Promise.all([
      ctx.db.query<OutboxRow>(
        `SELECT "id", to_char("created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "created_at",
                "recipient", "subject", "text_body", "links", "status", "attempts", "last_error"
           FROM "mail_message" ORDER BY "id" DESC LIMIT $1 OFFSET $2`,
        [query.limit, query.offset],
      ),
      ctx.db.query<{ n: number }>('SELECT count(*)::integer AS "n" FROM "mail_message"'),
    ]);
    return {
      transport: transport.kind,
      total: count.rows[0]?.n ?? 0,
      messages: rows.map((row) => ({
        id: row.id,
        createdAt: row.created_at,
        to: row.recipient,
        subject: row.subject,
        text: row.text_body,
        links: row.links,
        status: row.status,
        attempts: row.attempts,
        lastError: row.last_error,
      })),
    };
  });
  return dispatcher;
};
