import { randomBytes } from 'node:crypto';
import type { Actor } from '../../infra/auth/actor.js';
import { createActorWriter } from '../../infra/odata/actor-writes.js';
import { parseBalenaYml } from './balena-yml.js';
import { applyBuildSettings, parseBuildSettings } from './build-settings.js';
import {
  type ComposeProject,
  type ComposeService,
  parseComposeFile,
  singleDockerfileProject,
} from './compose-file.js';
import {
  type BuilderDeps,
  type BuildOptions,
  type BuildResult,
  DiscardedBuild,
  type ReleaseDescription,
  type ReleasePlan,
} from './build-outcome.js';
import { fleetServiceId } from './fleet-service.js';
import { imageBuilderOf } from './image-builder.js';
import type { ProjectFiles } from './project-archive.js';
import { buildServicesOutsideTransactions } from './staged-build.js';

// What a service's image becomes without a container engine: its own reference, or a failure
// explaining why nothing is built.
const imageOf = (
  service: ComposeService,
  unavailable: string,
): { location: string | null; error: string | null } =>
  service.image !== null && service.build === undefined
    ? { location: service.image, error: null }
    : { location: null, error: `This server does not build images: ${unavailable}` };

const describeProject = (
  files: ProjectFiles,
): { project: ComposeProject; described: ReleaseDescription } => {
  const composed =
    files.compose === undefined
      ? singleDockerfileProject(files.dockerfile)
      : parseComposeFile(files.compose.text, files.compose.fileName);
  // The build settings reach the build steps only: the release's composition stays as written.
  const project = applyBuildSettings(composed, parseBuildSettings(files.buildSettings));
  const contract = files.balenaYml === undefined ? undefined : parseBalenaYml(files.balenaYml);
  return {
    project,
    described: {
      composition: project.composition,
      ...(contract ? { contract: contract.contract } : {}),
      ...(contract?.version ? { semver: contract.version } : {}),
    },
  };
};

// The builder: checks the project (bad input throws a 400 before anything is written), then makes
// the release as the caller, under the same rules as their own /v7 writes. Services naming an
// image keep its reference. Services with a build step are built by the container engine
// (staged-build.ts); without one, they fail the release with the reason.
export const buildRelease = async (
  deps: BuilderDeps,
  actor: Actor,
  fleetId: number,
  files: ProjectFiles,
  // Each log line as it is written, for a caller streaming the log (register-builder.ts).
  onLog: (line: string) => void = () => undefined,
  options: BuildOptions = {},
): Promise<BuildResult> => {
  const { project, described } = describeProject(files);
  const commit = options.commit ?? randomBytes(16).toString('hex');
  const availability = deps.imageBuilder ?? imageBuilderOf(deps.config);
  const builds = project.services.some((service) => service.build !== undefined);
  if (builds && 'builder' in availability) {
    return await buildServicesOutsideTransactions(deps, actor, fleetId, files, {
      project,
      described,
      commit,
      builder: availability.builder,
      onLog,
      options,
    });
  }
  return await recordRelease(deps, actor, fleetId, {
    project,
    described,
    commit,
    unavailable: 'unavailable' in availability ? availability.unavailable : '',
    onLog,
    options,
  });
};

// A release whose services all name their images (or that cannot be built here): created with
// its services and images in one transaction.
const recordRelease = async (
  deps: BuilderDeps,
  actor: Actor,
  fleetId: number,
  {
    project,
    described,
    commit,
    unavailable,
    onLog,
    options,
  }: ReleasePlan & {
    // Why the services with a build step are not built.
    unavailable: string;
  },
): Promise<BuildResult> =>
  await deps.db.transaction(async (tx) => {
    const writer = createActorWriter(deps, tx, actor);
    const started = deps.now();
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
      const serviceId = await fleetServiceId(tx, writer, fleetId, service.name);
      const image = imageOf(service, unavailable);
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

// The release a build started in the background goes into, created (running, as the caller) and
// committed before the build, so the client can follow it (POST /v3/buildFromUrl, /v3/build). Recorded as a
// server build: should this server stop mid-build, the stuck-build sweep ends it.
export const startRelease = async (
  deps: BuilderDeps,
  actor: Actor,
  fleetId: number,
  // A draft release (balena push --draft): the fleet's "track latest" passes it over.
  { draft = false }: { draft?: boolean } = {},
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
      ...(draft ? { is_final: false } : {}),
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
