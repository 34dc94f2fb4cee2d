import type { Database } from '../../infra/db/database.js';

// Events fanned out per transaction.
const batchSize = 500;

// Turns committed events into deliveries: each event not yet fanned out gets one delivery per
// enabled endpoint of its organization (or its fleet) that wants its type, and is marked fanned
// out in the same transaction, so a crash before the commit leaves it for the next run and one
// after it has its deliveries: never lost, never two. The transaction-scoped advisory lock keeps
// one fan-out at a time across processes, so deliveries are made in event order. Returns how many
// events it took. It also gives each event its place in the live stream (stream_position), in
// commit order because of that lock.
export const fanOutEvents = async (db: Database, now: Date): Promise<number> =>
  db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('flotilla_event_fanout'))`);
    const { rows } = await tx.query<{ taken: number }>(
      `WITH "picked" AS (
         SELECT "id", "type", "organization", "fleet", "device" FROM "event_outbox"
          WHERE "fanned_out_at" IS NULL ORDER BY "id" LIMIT $2 FOR UPDATE
       ), "made" AS (
         INSERT INTO "webhook_delivery" ("endpoint", "event", "ordering_key", "created_at", "next_attempt_at")
         SELECT e."id", p."id", p."device", $1, $1
           FROM "picked" p
           JOIN "webhook_endpoint" e ON e."organization" = p."organization" AND e."is_enabled"
                AND (e."application" IS NULL OR e."application" = p."fleet")
                AND p."type" = ANY (e."events")
          ORDER BY p."id", e."id"
         ON CONFLICT ("endpoint", "event") DO NOTHING
         RETURNING 1
       ), "marked" AS (
         UPDATE "event_outbox" o
            SET "fanned_out_at" = $1, "stream_position" = nextval('event_stream_position_seq')
           FROM "picked" p WHERE o."id" = p."id"
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM "marked")::integer AS "taken",
              (SELECT count(*) FROM "made")::integer AS "made"`,
      [now, batchSize],
    );
    const taken = rows[0]?.taken ?? 0;
    // The live streams (features/event-stream) read what this commit makes visible.
    if (taken > 0) await tx.query(`SELECT flotilla_bus_notify('flotilla_event_stream', '')`);
    return taken;
  });
