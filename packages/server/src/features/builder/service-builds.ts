import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { builderLimits } from '@flotilla/shared/releases/builder-limits';
import type { Outcome } from './build-backend.js';
import type { BuildStep } from './compose-file.js';
import {
  contextDirOf,
  contextTar,
  prepareDockerfile,
  unpackProject,
  type UnpackedProject,
} from './build-context.js';
import { secretMounts, takeSecretFiles, withSecretMounts } from './build-secrets.js';
import { type BuildTarget, buildTarget, type PlatformTarget } from './engine-architecture.js';
import type { ImageBuilder } from './image-builder.js';
import type { ProjectFiles } from './project-archive.js';

// One service to build: its image row's location is the tag the image is pushed as.
export type ServiceBuild = { service: string; imageId: number; location: string; step: BuildStep };

export type ServiceBuildResult = {
  imageId: number;
  // The service's part of the build log (each line prefixed with the service).
  log: string[];
} & (
  | {
      status: 'success';
      digest: string;
      size: number;
      // The Dockerfile's text, as balena records it on the image.
      dockerfile: string;
      projectType: string;
    }
  | { status: 'failed'; error: string }
);

export type BuildRun = {
  builder: ImageBuilder;
  files: ProjectFiles;
  // balena's Dockerfile.template variables, for the fleet's device type.
  templateVariables: Record<string, string>;
  // The fleet's CPU architecture (balena's slug).
  fleetArch: string | undefined;
  now: () => Date;
  onLog: (line: string) => void;
  // balena push --nocache (build-backend.ts).
  noCache: boolean;
};

// The engine or the registry could not be reached: the build fails, saying so.
const engineFailure = (thrown: unknown): string =>
  `The container engine failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`;

const notBuilt = 'Not built: the build of another service failed';

export const outputCutLine = `The engine's output is longer than ${builderLimits.engineOutputChars / 1024} KiB: the rest is left out of the build log`;

// What the engine writes goes to the log up to the limit, each line cut at its limit; the
// builder's own lines (errors, results) always do.
type EngineOutput = (say: (line: string) => void) => (line: string) => void;

const engineOutput = (): EngineOutput => {
  let chars = 0;
  let cut = false;
  return (say) => (line) => {
    const kept = line.slice(0, builderLimits.engineOutputLineChars);
    chars += kept.length + 1;
    if (chars <= builderLimits.engineOutputChars) say(kept);
    else if (!cut) {
      cut = true;
      say(outputCutLine);
    }
  };
};

// The Dockerfile a build with secrets uses, written beside the service's own in the server's
// copy of its context (and removed after): each RUN mounts the secrets.
const secretsDockerfile = '.flotilla-secrets.Dockerfile';

const buildOne = async (
  run: BuildRun & {
    output: EngineOutput;
    target: PlatformTarget;
    // The project's .balena/secrets/ files (build-secrets.ts).
    secretFiles: ReadonlyMap<string, Buffer>;
  },
  contextRoot: UnpackedProject,
  build: ServiceBuild,
  log: string[],
): Promise<ServiceBuildResult> => {
  const say = (line: string): void => {
    const prefixed = `[${build.service}] ${line}`;
    log.push(prefixed);
    run.onLog(prefixed);
  };
  const fail = (reason: string): ServiceBuildResult => {
    const error = reason.slice(0, builderLimits.engineOutputLineChars);
    say(`Error: ${error}`);
    return { imageId: build.imageId, log, status: 'failed', error };
  };
  const contextDir = await contextDirOf(contextRoot, build.step.context);
  if (contextDir === undefined) {
    return fail(`The build context '${build.step.context || '.'}' is not a folder of the project`);
  }
  const prepared = await prepareDockerfile(
    contextDir,
    build.step.dockerfile,
    run.templateVariables,
  );
  if (prepared === undefined) {
    return fail(
      `The build context '${build.step.context || '.'}' has no ${build.step.dockerfile ?? 'Dockerfile or Dockerfile.template'}`,
    );
  }
  if (prepared.fromTemplate) say("Building Dockerfile.template for the fleet's device type");
  if ('emulated' in run.target) say(`Building for ${run.target.emulated} through emulation`);
  const mounts = secretMounts(run.secretFiles, build.step.secrets);
  if ('missing' in mounts) {
    return fail(`The build secret '${mounts.missing}' is not a file of .balena/secrets`);
  }
  let dockerfile = prepared.dockerfile;
  if (mounts.secrets.size > 0) {
    dockerfile = secretsDockerfile;
    await writeFile(join(contextDir, dockerfile), withSecretMounts(prepared.text, mounts.flags));
    say(`Building with ${mounts.secrets.size} build secret(s) at /run/secrets`);
  }
  let built: Outcome<{ imageId: string }>;
  try {
    built = await run.builder.backend.build(
      await contextTar(contextDir, dockerfile),
      {
        dockerfile,
        buildArgs: build.step.args,
        target: build.step.target,
        tag: build.location,
        network: run.builder.network,
        noCache: run.noCache,
        platform: run.target.platform,
        secrets: mounts.secrets,
      },
      run.output(say),
    );
  } finally {
    if (dockerfile === secretsDockerfile) await rm(join(contextDir, dockerfile), { force: true });
  }
  if (!built.ok) return fail(built.error);
  say('Pushing the image to the registry');
  const token = await run.builder.pushToken(build.location, run.now());
  const pushed = await run.builder.backend.push(build.location, token, run.output(say));
  // The engine keeps the layers (the next build's cache), not the tag.
  await run.builder.backend.remove(build.location).catch(() => undefined);
  if (!pushed.ok) return fail(`The push to the registry failed: ${pushed.error}`);
  say(`Built and pushed ${pushed.digest} (${pushed.size} bytes)`);
  return {
    imageId: build.imageId,
    log,
    status: 'success',
    digest: pushed.digest,
    size: pushed.size,
    dockerfile: prepared.text,
    projectType: prepared.fromTemplate ? 'Dockerfile.template' : 'Dockerfile',
  };
};

// Builds the services one after the other, outside any database transaction, and pushes each
// image; after a failure the others are not built. Nothing is thrown for a failed build: a
// failing Dockerfile or push is a failed service with the engine's words in its log.
export const runServiceBuilds = async (
  run: BuildRun,
  builds: readonly ServiceBuild[],
): Promise<ServiceBuildResult[]> => {
  const failAll = (reason: string): ServiceBuildResult[] =>
    builds.map((build) => {
      const line = `[${build.service}] Error: ${reason}`;
      run.onLog(line);
      return { imageId: build.imageId, log: [line], status: 'failed', error: reason };
    });
  let target: BuildTarget;
  try {
    const { backend } = run.builder;
    target = await buildTarget(run.fleetArch, await backend.architecture(), {
      enabled: run.builder.emulation,
      runsPlatform: (platform) => backend.runsPlatform(platform),
    });
  } catch (thrown) {
    return failAll(engineFailure(thrown));
  }
  if ('refused' in target) return failAll(target.refused);
  const project = await unpackProject(run.files.archive, run.files.root);
  const results: ServiceBuildResult[] = [];
  const output = engineOutput();
  try {
    const secretFiles = await takeSecretFiles(project.dir);
    for (const build of builds) {
      if (results.some((result) => result.status === 'failed')) {
        const line = `[${build.service}] ${notBuilt}`;
        run.onLog(line);
        results.push({ imageId: build.imageId, log: [line], status: 'failed', error: notBuilt });
        continue;
      }
      const log: string[] = [];
      try {
        results.push(await buildOne({ ...run, output, target, secretFiles }, project, build, log));
      } catch (thrown) {
        const reason = engineFailure(thrown);
        const line = `[${build.service}] Error: ${reason}`;
        log.push(line);
        run.onLog(line);
        results.push({ imageId: build.imageId, log, status: 'failed', error: reason });
      }
    }
  } finally {
    await project.remove();
  }
  return results;
};
