import { randomBytes } from 'node:crypto';
import type { Actor } from '../../infra/auth/actor.js';
import type { Database } from '../../infra/db/database.js';
import { createActorWriter } from '../../infra/odata/actor-writes.js';
import type { HookRegistry } from '../../infra/odata/hooks.js';
import type { Model } from '../../model/model-types.js';
import { parseBalenaYml } from './balena-yml.js';
import { type ComposeService, parseComposeFile } from './compose-file.js';
import type { ProjectFiles } from './project-archive.js';

export type BuilderDeps = { db: Database; model: Model; hooks: HookRegistry; now: () => Date };

export type BuildResult = {
  releaseId: number;
  commit: string;
  status: 'success' | 'failed';
  // The build log, one line per entry, each prefixed with its service as balena's builder does.
  log: string[];
};

export type BuildOptions = {
  // The source's commit (a git push's); a random id otherwise, as balena records for uploads.
  commit?: string;
  // A failed build creates nothing: the transaction rolls back and DiscardedBuild is thrown (a
  // git push is refused instead of leaving a failed release behind).
  discardFailed?: boolean;
  // The release to build into: one created already (running) by startRelease, whose answer went
  // to the client before the build (POST /v3/buildFromUrl). A new release otherwise.
  releaseId?: number;
  // Lines logged before the build (the download), kept at the head of the release's build log.
  earlierLog?: readonly string[];
};

// Thrown by a failed build with `discardFailed`; carries the log that says why.
export class DiscardedBuild extends Error {
  constructor(readonly log: string[]) {
    super('The build failed; nothing was created');
  }
}

// What a service's image becomes: its own reference, or a failure explaining why nothing is built.
const imageOf = (service: ComposeService): { location: string | null; error: string | null } =>
  service.image !== null && !service.build
    ? { location: service.image, error: null }
    : {
        location: null,
        error:
          "This server does not build images: build it with 'balena deploy' on a machine with Docker, or push it to a registry and reference it with 'image:'",
      };

// The compose builder (no container engine): checks the project, then creates the release with its
// services and images in one transaction, as the caller and under the same rules as their own /v7
// writes. Services naming an image keep its reference; a service that needs a build step fails
// the release with the reason. Bad input throws a 400 before anything is written.
export const buildRelease = async (
  deps: BuilderDeps,
  actor: Actor,
  fleetId: number,
  files: ProjectFiles,
  // Each log line as it is written, for a caller streaming the log (register-builder.ts).
  onLog: (line: string) => void = () => undefined,
  options: BuildOptions = {},
): Promise<BuildResult> => {
  const project = parseComposeFile(files.compose, files.composeFileName);
  const contract = files.balenaYml === undefined ? undefined : parseBalenaYml(files.balenaYml);
  const commit = options.commit ?? randomBytes(16).toString('hex');
  return await deps.db.transaction(async (tx) => {
    const writer = createActorWriter(deps, tx, actor);
    const started = deps.now();
    const described = {
      composition: project.composition,
      ...(contract ? { contract: contract.contract } : {}),
      ...(contract?.version ? { semver: contract.version } : {}),
    };
    const releaseId =
      options.releaseId ??
      (await writer.create('release', {
        belongs_to__application: fleetId,
        commit,
        status: 'running',
        source: 'cloud',
        start_timestamp: started.toISOString(),
        ...described,
      }));
    if (options.releaseId !== undefined) await writer.update('release', releaseId, described);
    const log: string[] = [...(options.earlierLog ?? [])];
    const note = (...lines: string[]): void => {
      log.push(...lines);
      lines.forEach(onLog);
    };
    let failed = false;
    for (const service of project.services) {
      const existing = await tx.query<{ id: number }>(
        'SELECT "id" FROM "service" WHERE "application" = $1 AND "service_name" = $2',
        [fleetId, service.name],
      );
      const serviceId =
        existing.rows[0]?.id ??
        (await writer.create('service', { application: fleetId, service_name: service.name }));
      const image = imageOf(service);
      const lines =
        image.error === null
          ? [`[${service.name}] Using image ${image.location ?? ''}`]
          : [`[${service.name}] Error: ${image.error}`];
      note(...lines);
      failed ||= image.error !== null;
      const imageId = await writer.create('image', {
        is_a_build_of__service: serviceId,
        status: image.error === null ? 'success' : 'failed',
        start_timestamp: started.toISOString(),
        end_timestamp: deps.now().toISOString(),
        build_log: lines.join('\n'),
        ...(image.location === null ? {} : { is_stored_at__image_location: image.location }),
        ...(image.error === null ? {} : { error_message: image.error }),
      });
      await writer.create('release_image', { image: imageId, is_part_of__release: releaseId });
    }
    const status = failed ? 'failed' : 'success';
    note(failed ? 'Build failed: see the services above' : 'Build succeeded');
    if (failed && options.discardFailed) throw new DiscardedBuild(log);
    await writer.update('release', releaseId, {
      status,
      end_timestamp: deps.now().toISOString(),
      build_log: log.join('\n'),
    });
    return { releaseId, commit, status, log };
  });
};

// The release a build started in the background goes into, created (running, as the caller) and
// committed before the build, so the client can follow it (POST /v3/buildFromUrl). Recorded as a
// server build: should this server stop mid-build, the stuck-build sweep ends it.
export const startRelease = async (
  deps: BuilderDeps,
  actor: Actor,
  fleetId: number,
): Promise<number> =>
  await deps.db.transaction(async (tx) => {
    const started = deps.now();
    const releaseId = await createActorWriter(deps, tx, actor).create('release', {
      belongs_to__application: fleetId,
      commit: randomBytes(16).toString('hex'),
      status: 'running',
      source: 'cloud',
      composition: {},
      start_timestamp: started.toISOString(),
    });
    await tx.query('INSERT INTO "server_build" ("release", "started_at") VALUES ($1, $2)', [
      releaseId,
      started,
    ]);
    return releaseId;
  });

class DryRun extends Error {}

// Whether the actor may create a release of the fleet, by the same rules as the build itself: the
// release is created and rolled back. Checked before the builder downloads anything for them.
export const assertCanCreateRelease = async (
  deps: BuilderDeps,
  actor: Actor,
  fleetId: number,
): Promise<void> => {
  try {
    await deps.db.transaction(async (tx) => {
      await createActorWriter(deps, tx, actor).create('release', {
        belongs_to__application: fleetId,
        commit: randomBytes(16).toString('hex'),
        status: 'running',
        source: 'cloud',
        composition: {},
        start_timestamp: deps.now().toISOString(),
      });
      throw new DryRun();
    });
  } catch (error) {
    if (!(error instanceof DryRun)) throw error;
  }
};
