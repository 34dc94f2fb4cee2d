import type { Queryable } from '../../infra/db/database.js';

// Events (and their deliveries' records) are kept this long, then deleted.
export const eventRetentionMs = 30 * 24 * 3_600_000;
export const eventRetentionSweepMs = 3_600_000;

// Deletes fanned-out events older than the retention whose deliveries are all done.
export const sweepOldEvents = async (db: Queryable, now: Date): Promise<void> => {
  await db.query(
    `DELETE FROM "event_outbox" o
      WHERE o."fanned_out_at" IS NOT NULL AND o."occurred_at" < $1
        AND NOT EXISTS (SELECT 1 FROM "webhook_delivery" d
                         WHERE d."event" = o."id" AND d."status" IN ('pending', 'delivering'))`,
    [new Date(now.getTime() - eventRetentionMs)],
  );
};
