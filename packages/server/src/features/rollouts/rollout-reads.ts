import type { Queryable } from '../../infra/db/database.js';

// What the console and API clients read of rollouts: the fleet's list, and one rollout whole
// (waves with their device counts by state, the devices with their reasons, the timeline).

const summaryColumns = `r."id", r."application", r."from_release", r."target_release", r."status",
  r."gates", r."current_wave", r."halt_reason", r."rolled_back", r."created_at", r."finished_at",
  (SELECT count(*)::integer FROM "flotilla_rollout_wave" w WHERE w."rollout" = r."id") AS "wave_count"`;

export const fleetRollouts = async (db: Queryable, fleet: number): Promise<unknown[]> =>
  (
    await db.query(
      `SELECT ${summaryColumns} FROM "flotilla_rollout" r WHERE r."application" = $1
        ORDER BY r."id" DESC LIMIT 50`,
      [fleet],
    )
  ).rows;

export const rolloutFleet = async (db: Queryable, id: number): Promise<number | undefined> =>
  (
    await db.query<{ application: number }>(
      `SELECT "application" FROM "flotilla_rollout" WHERE "id" = $1`,
      [id],
    )
  ).rows[0]?.application;

export const rolloutDetail = async (db: Queryable, id: number): Promise<unknown> => {
  const { rows } = await db.query(
    `SELECT ${summaryColumns} FROM "flotilla_rollout" r WHERE r."id" = $1`,
    [id],
  );
  const rollout = rows[0];
  if (!rollout) return undefined;
  const waves = await db.query(
    `SELECT w."position", w."spec", w."status", w."started_at", w."finished_at", w."skip_reason",
            (SELECT coalesce(json_object_agg(s."state", s."n"), '{}') FROM (
               SELECT rd."state", count(*)::integer AS "n" FROM "flotilla_rollout_device" rd
                WHERE rd."rollout" = w."rollout" AND rd."wave" = w."position" GROUP BY rd."state") s
            ) AS "counts"
       FROM "flotilla_rollout_wave" w WHERE w."rollout" = $1 ORDER BY w."position"`,
    [id],
  );
  // Failed devices first, so the reasons of a halt are on the first page of a large fleet.
  const devices = await db.query(
    `SELECT d."id", d."uuid", d."device_name", rd."wave", rd."state", rd."reason", rd."updated_at"
       FROM "flotilla_rollout_device" rd JOIN "device" d ON d."id" = rd."device"
      WHERE rd."rollout" = $1
      ORDER BY (rd."state" IN ('failed', 'rolled_back')) DESC, rd."wave", d."device_name"
      LIMIT 500`,
    [id],
  );
  const events = await db.query(
    `SELECT e."id", e."at", e."kind", e."message", u."username" AS "by"
       FROM "flotilla_rollout_event" e LEFT JOIN "user" u ON u."id" = e."by_user"
      WHERE e."rollout" = $1 ORDER BY e."id" DESC LIMIT 200`,
    [id],
  );
  return { ...rollout, waves: waves.rows, devices: devices.rows, events: events.rows };
};
