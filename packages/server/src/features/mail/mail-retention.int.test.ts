import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { composeMail } from './mail-compose.js';
import { queueMail } from './mail-message.js';
import { redactedLink } from './mail-redaction.js';
import { sweepMailOutbox } from './mail-retention.js';
import { registerMail } from './register-mail.js';

let db: Database;
let ctx: AppContext;
const clock = new Date('2026-06-01T12:00:00Z');

const link = 'https://flotilla.example.com/invitation/live-token';

// A message created `hoursAgo` before the clock, in `status`.
const message = async (status: string, hoursAgo: number): Promise<number> => {
  const id = await queueMail(
    db,
    composeMail({
      to: 'someone@example.com',
      subject: 'Invitation',
      paragraphs: ['Hello,'],
      action: { label: 'Accept', url: link },
    }),
  );
  await db.query(
    `UPDATE "mail_message" SET "status" = $2, "created_at" = $3, "next_attempt_at" = $4
      WHERE "id" = $1`,
    [id, status, new Date(clock.getTime() - hoursAgo * 3_600_000), new Date('2100-01-01')],
  );
  return id;
};

const ids = async (): Promise<number[]> =>
  (await db.query<{ id: number }>('SELECT "id" FROM "mail_message" ORDER BY "id"')).rows.map(
    (row) => row.id,
  );

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = createTestContext(db, { now: () => clock, config: { mailOutboxRetentionHours: 24 } });
});

afterAll(async () => {
  await db.close();
});

beforeEach(async () => {
  await db.query('DELETE FROM "mail_message"');
});

describe('outbox retention', () => {
  it('deletes messages older than the cutoff whatever their status, except one being sent', async () => {
    const old = await Promise.all(
      ['queued', 'sent', 'stored', 'failed'].map((status) => message(status, 25)),
    );
    const inFlight = await message('sending', 25);
    const recent = await message('stored', 23);
    expect(old).toHaveLength(4);
    const swept = await sweepMailOutbox(db, new Date(clock.getTime() - 24 * 3_600_000));
    expect(swept.deleted).toBe(4);
    expect(await ids()).toEqual([inFlight, recent]);
  });

  it('removes the links of delivered messages that still hold them (written before this release)', async () => {
    const sent = await message('sent', 1);
    const stored = await message('stored', 1);
    await sweepMailOutbox(db, new Date(clock.getTime() - 24 * 3_600_000));
    const { rows } = await db.query<{ id: number; text_body: string; links: string[] }>(
      'SELECT "id", "text_body", "links" FROM "mail_message" ORDER BY "id"',
    );
    expect(rows).toEqual([
      { id: sent, text_body: expect.stringContaining(redactedLink) as unknown, links: [] },
      { id: stored, text_body: expect.stringContaining(link) as unknown, links: [link] },
    ]);
    expect(rows[0]?.text_body).not.toContain('live-token');
  });

  it('runs when the server is ready and then every hour, with FLOTILLA_MAIL_OUTBOX_RETENTION_HOURS', async () => {
    const old = await message('stored', 25);
    const recent = await message('stored', 23);
    const scheduled: { task: () => void; ms: number }[] = [];
    let app: FastifyInstance | undefined;
    try {
      app = await createTestApp(ctx, (server, context) => {
        registerMail(server, context, context.notifications, {
          schedule: (task, ms) => {
            scheduled.push({ task, ms });
            return () => undefined;
          },
        });
      });
      expect(scheduled.map((entry) => entry.ms)).toEqual([0]);
      scheduled[0]?.task();
      await expect.poll(() => scheduled.length).toBe(2);
      expect(scheduled[1]?.ms).toBe(3_600_000);
      expect(await ids()).toEqual([recent]);
      expect(await ids()).not.toContain(old);
    } finally {
      await app?.close();
    }
  });
});
