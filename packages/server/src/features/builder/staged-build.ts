import type { Actor } from '../../infra/auth/actor.js';
import type { Queryable } from '../../infra/db/database.js';
import { createActorWriter } from '../../infra/odata/actor-writes.js';
import {
  type BuildEnd,
  type BuilderDeps,
  type BuildResult,
  DiscardedBuild,
  type ReleasePlan,
} from './build-outcome.js';
import { checkRunning, keepAlive, queuedLine, showLog } from './build-liveness.js';
import { type BuildStop, buildQueueOf, describeDuration } from './build-queue.js';
import { fleetServiceId } from './fleet-service.js';
import type { ImageBuilder } from './image-builder.js';
import type { ProjectFiles } from './project-archive.js';
import {
  cacheTagOf,
  runServiceBuilds,
  type ServiceBuild,
  type ServiceBuildResult,
} from './service-builds.js';

export type StagedBuild = ReleasePlan & { builder: ImageBuilder };

const serverBuildHeartbeatMs = 60_000;

type Started = {
  releaseId: number;
  builds: ServiceBuild[];
  // Rows a discarded build removes again.
  imageIds: number[];
  templateVariables: Record<string, string>;
};

// balena's Dockerfile.template variables for the fleet's device type.
const templateVariablesOf = async (
  tx: Queryable,
  fleetId: number,
): Promise<Record<string, string>> => {
  const { rows } = await tx.query<{ machine: string; arch: string }>(
    `SELECT dt."slug" AS "machine", ca."slug" AS "arch"
       FROM "application" a
       JOIN "device_type" dt ON dt."id" = a."is_for__device_type"
       JOIN "cpu_architecture" ca ON ca."id" = dt."is_of__cpu_architecture"
      WHERE a."id" = $1`,
    [fleetId],
  );
  const fleet = rows[0];
  return fleet
    ? {
        BALENA_MACHINE_NAME: fleet.machine,
        BALENA_ARCH: fleet.arch,
        RESIN_MACHINE_NAME: fleet.machine,
        RESIN_ARCH: fleet.arch,
      }
    : {};
};

// First transaction: the release (running), its services and images, the images to build
// running with the location the server gives them. Committed before anything is built, so no row
// stays locked during a build; a server_build row lets the stuck-build sweep end the release
// should this server stop mid-build.
const startBuild = async (
  deps: BuilderDeps,
  actor: Actor,
  fleetId: number,
  staged: StagedBuild,
  note: (line: string) => void,
): Promise<Started> =>
  await deps.db.transaction(async (tx) => {
    const writer = createActorWriter(deps, tx, actor);
    const started = deps.now().toISOString();
    const releaseId =
      staged.options.releaseId ??
      (await writer.create('release', {
        belongs_to__application: fleetId,
        commit: staged.commit,
        status: 'running',
        source: 'cloud',
        start_timestamp: started,
        ...staged.described,
      }));
    if (staged.options.releaseId !== undefined) {
      await writer.update('release', releaseId, staged.described);
    }
    await tx.query(
      `INSERT INTO "server_build" ("release", "started_at") VALUES ($1, $2)
       ON CONFLICT ("release") DO NOTHING`,
      [releaseId, started],
    );
    const builds: ServiceBuild[] = [];
    const imageIds: number[] = [];
    for (const service of staged.project.services) {
      const serviceId = await fleetServiceId(tx, writer, fleetId, service.name);
      const step = service.build;
      const imageId =
        step === undefined
          ? await writer.create('image', {
              is_a_build_of__service: serviceId,
              status: 'success',
              start_timestamp: started,
              end_timestamp: started,
              build_log: `[${service.name}] Using image ${service.image ?? ''}`,
              is_stored_at__image_location: service.image,
            })
          : await writer.create('image', {
              is_a_build_of__service: serviceId,
              status: 'running',
              start_timestamp: started,
            });
      imageIds.push(imageId);
      await writer.create('release_image', { image: imageId, is_part_of__release: releaseId });
      if (step === undefined) {
        note(`[${service.name}] Using image ${service.image ?? ''}`);
        continue;
      }
      const { rows } = await tx.query<{ location: string }>(
        'SELECT "is_stored_at__image_location" AS "location" FROM "image" WHERE "id" = $1',
        [imageId],
      );
      const location = rows[0]?.location;
      if (location === undefined) throw new Error(`image ${imageId} has no location`);
      builds.push({
        service: service.name,
        imageId,
        location,
        cacheTag: cacheTagOf(serviceId),
        step,
      });
    }
    return {
      releaseId,
      builds,
      imageIds,
      templateVariables: await templateVariablesOf(tx, fleetId),
    };
  });

// Second transaction: each built image's digest, size, log and end, then the release's. A
// stopped build's release ends as the stop says, its unfinished images with it.
const recordBuild = async (
  deps: BuilderDeps,
  actor: Actor,
  started: Started,
  results: readonly ServiceBuildResult[],
  log: readonly string[],
  stop: BuildStop | undefined,
): Promise<BuildEnd> =>
  await deps.db.transaction(async (tx) => {
    const writer = createActorWriter(deps, tx, actor);
    const ended = deps.now().toISOString();
    for (const result of results) {
      await writer.update('image', result.imageId, {
        status: result.status === 'failed' && stop !== undefined ? stop.status : result.status,
        end_timestamp: ended,
        build_log: result.log.join('\n'),
        ...(result.status === 'success'
          ? {
              content_hash: result.digest,
              image_size: result.size,
              push_timestamp: ended,
              dockerfile: result.dockerfile,
              project_type: result.projectType,
            }
          : { error_message: result.error }),
      });
    }
    const status: BuildEnd =
      stop?.status ??
      (results.every((result) => result.status === 'success') ? 'success' : 'failed');
    await writer.update('release', started.releaseId, {
      status,
      end_timestamp: ended,
      build_log: log.join('\n'),
    });
    await tx.query('DELETE FROM "server_build" WHERE "release" = $1', [started.releaseId]);
    return status;
  });

// When the results cannot be recorded as the caller (their rights changed meanwhile), the
// release and its unfinished images still end failed, so that no build is left running unseen.
export const unrecordedLine = 'Build failed: its result could not be recorded';

const endUnrecorded = async (
  deps: BuilderDeps,
  started: Started,
  log: readonly string[],
): Promise<void> =>
  await deps.db.transaction(async (tx) => {
    const ended = deps.now();
    await tx.query(
      `UPDATE "image" SET "status" = 'failed', "end_timestamp" = $2, "error_message" = $3
        WHERE "id" = ANY($1::integer[]) AND "status" = 'running'`,
      [started.imageIds, ended, unrecordedLine],
    );
    await tx.query(
      `UPDATE "release" SET "status" = 'failed', "end_timestamp" = $2, "build_log" = $3
        WHERE "id" = $1 AND "status" = 'running'`,
      [started.releaseId, ended, [...log, unrecordedLine].join('\n')],
    );
  });

// A failed git push build leaves no release behind: its rows go again (the pushed images of
// services that did build stay in the registry, unreferenced).
const discard = async (deps: BuilderDeps, started: Started): Promise<void> =>
  await deps.db.transaction(async (tx) => {
    await tx.query('DELETE FROM "release_image" WHERE "is_part_of__release" = $1', [
      started.releaseId,
    ]);
    await tx.query('DELETE FROM "image" WHERE "id" = ANY($1::integer[])', [started.imageIds]);
    await tx.query('DELETE FROM "release" WHERE "id" = $1', [started.releaseId]);
  });

// Each service's result when the build never ran (stopped while queued).
const notRun = (builds: readonly ServiceBuild[], note: (line: string) => void) =>
  builds.map((build): ServiceBuildResult => {
    const line = `[${build.service}] Not built: the build was stopped`;
    note(line);
    return { imageId: build.imageId, log: [line], status: 'failed', error: line };
  });

// A release with services to build: created (running) and committed, queued for its turn on
// this server's engine (build-queue.ts), built and pushed outside any transaction, its results
// recorded in a second transaction.
export const buildServicesOutsideTransactions = async (
  deps: BuilderDeps,
  actor: Actor,
  fleetId: number,
  files: ProjectFiles,
  staged: StagedBuild,
): Promise<BuildResult> => {
  const log: string[] = [...(staged.options.earlierLog ?? [])];
  const note = (line: string): void => {
    log.push(line);
    staged.onLog(line);
  };
  const started = await startBuild(deps, actor, fleetId, staged, note);
  let queuedAt: number | undefined;
  const turn = buildQueueOf(deps.config).join(
    started.releaseId,
    (position) => {
      queuedAt ??= deps.now().getTime();
      note(queuedLine(position, deps.config.builderParallel));
      showLog(deps, started.releaseId, log).catch(() => undefined);
    },
    staged.options.signal,
  );
  const alive = setInterval(() => {
    keepAlive(deps, started.releaseId, log, turn).catch(() => undefined);
  }, serverBuildHeartbeatMs);
  alive.unref();
  let results: ServiceBuildResult[];
  try {
    // Cancelled before its turn came (or before it reached this server): it does not run.
    if (await turn.ready) await checkRunning(deps, started.releaseId, turn);
    if (turn.signal.aborted) results = notRun(started.builds, note);
    else {
      if (queuedAt !== undefined) {
        note(`Started after ${describeDuration(deps.now().getTime() - queuedAt)} in the queue`);
        await showLog(deps, started.releaseId, log);
      }
      results = await runServiceBuilds(
        {
          builder: staged.builder,
          files,
          templateVariables: started.templateVariables,
          fleetArch: started.templateVariables.BALENA_ARCH,
          now: deps.now,
          onLog: note,
          noCache: staged.options.noCache ?? false,
          signal: turn.signal,
        },
        started.builds,
      );
    }
  } catch (thrown) {
    // The project could not be unpacked for its builds: every build fails, saying so.
    const reason = `The build could not start: ${thrown instanceof Error ? thrown.message : String(thrown)}`;
    note(`Error: ${reason}`);
    results = started.builds.map((build) => ({
      imageId: build.imageId,
      log: [`[${build.service}] Error: ${reason}`],
      status: 'failed',
      error: reason,
    }));
  } finally {
    clearInterval(alive);
    // Its place goes to the next build before the results are recorded.
    turn.leave();
  }
  const stop = turn.stopped();
  const failed = results.some((result) => result.status === 'failed');
  note(stop?.line ?? (failed ? 'Build failed: see the services above' : 'Build succeeded'));
  if ((failed || stop !== undefined) && staged.options.discardFailed) {
    await discard(deps, started);
    throw new DiscardedBuild(log);
  }
  let status: BuildEnd;
  try {
    status = await recordBuild(deps, actor, started, results, log, stop);
  } catch (thrown) {
    await endUnrecorded(deps, started, log).catch(() => undefined);
    throw thrown;
  }
  return { releaseId: started.releaseId, commit: staged.commit, status, log };
};
