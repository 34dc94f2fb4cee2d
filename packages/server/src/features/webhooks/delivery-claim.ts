import type { Queryable } from '../../infra/db/database.js';

// How long a claimed delivery is left to the process sending it before another takes it over
// (the first died mid-attempt): longer than the longest attempt.
export const deliveryLeaseMs = 90_000;

export type ClaimedDelivery = {
  id: number;
  deliveryUuid: string;
  endpoint: number;
  attempts: number;
  url: string;
  secret: string;
  organization: number;
  eventUuid: string;
  type: string;
  version: number;
  occurredAt: Date;
  fleet: number | null;
  device: number | null;
  data: Record<string, unknown>;
};

// Claims the next due delivery: pending and due, or claimed by a process whose lease lapsed, of an
// enabled endpoint, and with no earlier delivery of the same device to the same endpoint still
// waiting (deliveries of a device go out in event order, one at a time). The claim commits on its
// own, so no row lock is held while the receiver is spoken to.
export const claimDelivery = async (
  db: Queryable,
  now: Date,
): Promise<ClaimedDelivery | undefined> => {
  const { rows } = await db.query<ClaimedDelivery>(
    `WITH "claimed" AS (
       UPDATE "webhook_delivery" d
          SET "status" = 'delivering', "attempts" = d."attempts" + 1, "last_attempt_at" = $1,
              "next_attempt_at" = $1::timestamptz + make_interval(secs => $2::double precision / 1000)
        WHERE d."id" = (
          SELECT x."id" FROM "webhook_delivery" x
            JOIN "webhook_endpoint" e ON e."id" = x."endpoint" AND e."is_enabled"
           WHERE x."status" IN ('pending', 'delivering') AND x."next_attempt_at" <= $1
             AND (x."ordering_key" IS NULL OR NOT EXISTS (
               SELECT 1 FROM "webhook_delivery" y
                WHERE y."endpoint" = x."endpoint" AND y."ordering_key" = x."ordering_key"
                  AND y."status" IN ('pending', 'delivering') AND y."event" < x."event"))
           ORDER BY x."next_attempt_at", x."id" LIMIT 1 FOR UPDATE OF x SKIP LOCKED)
        RETURNING d."id", d."delivery_uuid", d."endpoint", d."attempts", d."event"
     )
     SELECT c."id"::integer AS "id", c."delivery_uuid" AS "deliveryUuid", c."endpoint",
            c."attempts", e."url", e."secret", o."organization", o."event_uuid" AS "eventUuid",
            o."type", o."version", o."occurred_at" AS "occurredAt", o."fleet", o."device", o."data"
       FROM "claimed" c
       JOIN "webhook_endpoint" e ON e."id" = c."endpoint"
       JOIN "event_outbox" o ON o."id" = c."event"`,
    [now, deliveryLeaseMs],
  );
  return rows[0];
};

// When the next delivery falls due (a retry, a lapsed claim), if any is waiting.
export const nextDueAt = async (db: Queryable): Promise<Date | undefined> => {
  const { rows } = await db.query<{ due: Date | null }>(
    `SELECT min("next_attempt_at") AS "due" FROM "webhook_delivery"
      WHERE "status" IN ('pending', 'delivering')`,
  );
  return rows[0]?.due ?? undefined;
};
