import type { Actor } from '../../infra/auth/actor.js';
import { createActorWriter } from '../../infra/odata/actor-writes.js';
import { ApiError } from '../../infra/errors/api-error.js';
import { mapDatabaseError } from '../../infra/odata/database-errors.js';
import type { BuilderDeps } from './build-outcome.js';
import { buildRelease } from './build-release.js';
import { type CheckedUrl, type FetchProjectOptions, fetchProject } from './fetch-project.js';
import { readProjectArchive } from './project-archive.js';

export type UrlBuildJob = {
  actor: Actor;
  fleetId: number;
  // The release created (running) before the client got its answer.
  releaseId: number;
  source: CheckedUrl;
  // balena's shouldFlatten (project-archive.ts).
  flatten: boolean;
  fetchOptions: Omit<FetchProjectOptions, 'onLog'>;
  log: { error(details: object, message: string): void };
};

export const serverFailureLine = 'Build failed: the build failed on the server';

// The release's end when the build could not run: failed, with the log saying why. As the caller
// first (their hooks and rules); should that be refused (their rights changed meanwhile), the row
// is still ended, so that no build is left running unseen.
export const markFailed = async (
  deps: BuilderDeps,
  job: Pick<UrlBuildJob, 'actor' | 'releaseId' | 'log'>,
  log: readonly string[],
): Promise<void> => {
  const end = {
    status: 'failed',
    end_timestamp: deps.now().toISOString(),
    build_log: log.join('\n'),
  };
  try {
    await deps.db.transaction(async (tx) => {
      await createActorWriter(deps, tx, job.actor).update('release', job.releaseId, end);
    });
  } catch (thrown) {
    job.log.error({ err: thrown, releaseId: job.releaseId }, 'ending a failed build as its user');
    await deps.db.query(
      `UPDATE "release" SET "status" = 'failed', "end_timestamp" = $2, "build_log" = $3
        WHERE "id" = $1 AND "status" = 'running'`,
      [job.releaseId, end.end_timestamp, end.build_log],
    );
  }
};

// The build of POST /v3/buildFromUrl after its answer: download (within the limits of
// fetchOptions), read the tarball, build into the release. Every way it can end leaves the
// release success or failed with the reason in its build log (a download refused or failed, not
// a tarball, no compose file, a service that needs a build step); nothing is thrown.
export const runUrlBuild = async (deps: BuilderDeps, job: UrlBuildJob): Promise<void> => {
  const log: string[] = [];
  try {
    const archive = await fetchProject(job.source, {
      ...job.fetchOptions,
      onLog: (line) => log.push(line),
    });
    const files = await readProjectArchive(archive, { flatten: job.flatten });
    await buildRelease(deps, job.actor, job.fleetId, files, undefined, {
      releaseId: job.releaseId,
      earlierLog: log,
    });
  } catch (thrown) {
    const error = mapDatabaseError(thrown);
    if (error instanceof ApiError && error.code !== 'internal') {
      log.push(`Build failed: ${error.message}`);
    } else {
      job.log.error({ err: thrown, releaseId: job.releaseId }, 'build from URL failed');
      log.push(serverFailureLine);
    }
    try {
      await markFailed(deps, job, log);
    } catch (unmarked) {
      // Left running, the release times out after 120 minutes (release-status.ts).
      job.log.error({ err: unmarked, releaseId: job.releaseId }, 'could not end a failed build');
    }
  }
};
