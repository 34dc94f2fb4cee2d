import type { Queryable } from '../../infra/db/database.js';

// Devices looked at per sweep statement.
const sweepBatch = 5_000;

// How often the sweep looks for devices whose deadline passed: offline events are this late at most.
export const presenceSweepIntervalMs = 10_000;

// Announces device.offline for every device announced online whose deadline (timeout_until) has
// passed, and moves the check of those whose deadline moved on to that deadline. It reads only
// device_presence rows whose check_at passed (an index range), so its cost follows the devices
// whose window ended, not the fleet's size. Rows a contact is changing now are skipped (SKIP
// LOCKED): that contact's own trigger tells what happened (migration 0062). Returns how many
// devices went offline.
export const sweepPresence = async (db: Queryable): Promise<number> => {
  let offline = 0;
  for (;;) {
    const { rows } = await db.query<{ seen: number; offline: number }>(
      `WITH "due" AS (
         SELECT p."device" FROM "device_presence" p WHERE p."check_at" < now()
          ORDER BY p."check_at" LIMIT $1 FOR UPDATE SKIP LOCKED
       ), "gone" AS (
         DELETE FROM "device_presence" p USING "due", "device" d
          WHERE p."device" = "due"."device" AND d."id" = p."device"
            AND (d."timeout_until" IS NULL OR d."timeout_until" < now())
         RETURNING d."id", d."uuid", d."device_name", d."belongs_to__application", d."timeout_until"
       ), "moved" AS (
         UPDATE "device_presence" p SET "check_at" = d."timeout_until" FROM "due", "device" d
          WHERE p."device" = "due"."device" AND d."id" = p."device" AND d."timeout_until" >= now()
         RETURNING 1
       ), "told" AS (
         SELECT flotilla_emit_event('device.offline', a."organization", g."belongs_to__application",
                  g."id", jsonb_build_object('device', g."id", 'uuid', g."uuid",
                    'deviceName', g."device_name", 'fleet', g."belongs_to__application"),
                  coalesce(g."timeout_until", now()))
           FROM "gone" g JOIN "application" a ON a."id" = g."belongs_to__application"
       )
       SELECT (SELECT count(*) FROM "due")::integer AS "seen",
              (SELECT count(*) FROM "told")::integer AS "offline"`,
      [sweepBatch],
    );
    const row = rows[0];
    offline += row?.offline ?? 0;
    if ((row?.seen ?? 0) < sweepBatch) return offline;
  }
};
