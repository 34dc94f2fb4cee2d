import type { FastifyInstance } from 'fastify';
import { buildTimeoutMs, failedReleaseStatuses } from '@flotilla/shared/releases/release-status';
import type { AppContext } from '../../app-context.js';
import type { Queryable } from '../../infra/db/database.js';
import { registerPeriodicTask, type Schedule } from '../../infra/scheduling/periodic-task.js';

// How often running builds are checked for the 120-minute timeout.
export const stuckBuildSweepIntervalMs = 5 * 60_000;

export const stuckBuildReason =
  'Build failed: no progress for 120 minutes (the builder or the client deploying it stopped); deploy it again';

// A build this server's builder runs after answering (a download of at most 30 s and one
// transaction) that is still running this long after its start lost its server (a crash). Image
// builds on the container engine keep their time recent while they run (builder/staged-build.ts).
export const serverBuildDeadlineMs = 15 * 60_000;

export const interruptedBuildReason =
  'Build failed: interrupted, the server building it stopped (it crashed or was killed); start it again';

export type SweptBuilds = { interrupted: number[]; timedOut: number[] };

// Ends builds that can no longer finish, as failed with the reason appended to their build logs:
// - the server's own builds (table server_build) still running 15 minutes after their start;
// - every build still running whose last update (or start) is over 120 minutes before `now`
//   (a balena deploy whose client went away), its unfinished images
//   failed too.
// Each statement is guarded by status = 'running', so two server processes sweeping at once end
// each build once. Answers the releases it ended.
export const sweepStuckBuilds = async (db: Queryable, now: Date): Promise<SweptBuilds> => {
  const interrupted = await db.query<{ id: number }>(
    `UPDATE "release" r SET "status" = 'failed', "end_timestamp" = $2,
            "build_log" = concat_ws(E'\\n', nullif(r."build_log", ''), $3::text)
       FROM "server_build" b
      WHERE b."release" = r."id" AND r."status" = 'running' AND b."started_at" < $1
      RETURNING r."id"`,
    [new Date(now.getTime() - serverBuildDeadlineMs), now, interruptedBuildReason],
  );
  // Finished server builds need no record any more.
  await db.query(
    `DELETE FROM "server_build" b USING "release" r
      WHERE r."id" = b."release" AND r."status" <> 'running'`,
  );
  const timedOut = await db.query<{ id: number }>(
    `WITH "ended" AS (
       UPDATE "release" SET "status" = 'failed', "end_timestamp" = $2,
              "build_log" = concat_ws(E'\\n', nullif("build_log", ''), $3::text)
        WHERE "status" = 'running' AND "update_timestamp" < $1
        RETURNING "id"),
     "images" AS (
       UPDATE "image" i SET "status" = 'failed', "end_timestamp" = $2,
              "error_message" = coalesce(i."error_message", $3::text),
              "build_log" = concat_ws(E'\\n', nullif(i."build_log", ''), $3::text)
         FROM "release_image" ri
        WHERE ri."image" = i."id" AND ri."is_part_of__release" IN (SELECT "id" FROM "ended")
          AND i."status" <> 'success' AND NOT i."status" = ANY($4::text[]))
     SELECT "id" FROM "ended" ORDER BY "id"`,
    [new Date(now.getTime() - buildTimeoutMs), now, stuckBuildReason, failedReleaseStatuses],
  );
  const ids = (rows: { id: number }[]): number[] => rows.map((row) => row.id).sort((a, b) => a - b);
  return { interrupted: ids(interrupted.rows), timedOut: ids(timedOut.rows) };
};

// Sweeps once when the server is ready (builds a crashed server left behind), then every interval.
export const registerStuckBuildSweep = (
  app: FastifyInstance,
  ctx: AppContext,
  options: { schedule?: Schedule } = {},
): void => {
  registerPeriodicTask(app, {
    run: async () => {
      const ended = await sweepStuckBuilds(ctx.db, ctx.now());
      if (ended.interrupted.length + ended.timedOut.length > 0) {
        app.log.info(ended, 'ended builds that can no longer finish');
      }
    },
    intervalMs: stuckBuildSweepIntervalMs,
    firstRunMs: 0,
    // The next run tries again; meanwhile such releases read as timed out (release-status.ts).
    failure: 'could not end stuck builds; will retry',
    schedule: options.schedule,
  });
};
