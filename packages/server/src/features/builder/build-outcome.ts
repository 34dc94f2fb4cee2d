import type { Config } from '../../infra/config/config.js';
import type { Database } from '../../infra/db/database.js';
import type { HookRegistry } from '../../infra/odata/hooks.js';
import type { Model } from '../../model/model-types.js';
import type { ComposeProject } from './compose-file.js';
import type { ImageBuilderAvailability } from './image-builder.js';

// What the builder needs, what it is told and what it answers (build-release.ts).

export type BuilderDeps = {
  db: Database;
  model: Model;
  hooks: HookRegistry;
  now: () => Date;
  config: Config;
  // The engine and registry the builder uses; made from `config` when left out.
  imageBuilder?: ImageBuilderAvailability;
};

// How a release's build ends: built, failed (a service's build, the time limit) or cancelled.
export type BuildEnd = 'success' | 'failed' | 'cancelled';

export type BuildResult = {
  releaseId: number;
  commit: string;
  status: BuildEnd;
  // The build log, one line per entry, each prefixed with its service as balena's builder does.
  log: string[];
};

export type BuildOptions = {
  // The source's commit (a git push's); a random id otherwise, as balena records for uploads.
  commit?: string;
  // A failed build leaves no release: the transaction rolls back (a build on the engine removes
  // the rows it committed) and DiscardedBuild is thrown (a git push is refused instead of leaving
  // a failed release behind).
  discardFailed?: boolean;
  // The release to build into: one created already (running) by startRelease, whose answer went
  // to the client before the build (POST /v3/buildFromUrl). A new release otherwise.
  releaseId?: number;
  // Lines logged before the build (the download), kept at the head of the release's build log.
  earlierLog?: readonly string[];
  // Build every step again, none from the engine's cache (balena push --nocache).
  noCache?: boolean;
  // Stops the build when it aborts, its reason the BuildStop (the client of balena push gone).
  signal?: AbortSignal;
};

// Thrown by a failed build with `discardFailed`; carries the log that says why.
export class DiscardedBuild extends Error {
  constructor(readonly log: string[]) {
    super('The build failed; nothing was created');
  }
}

// What the release records of the project: its composition, and balena.yml's contract and version.
export type ReleaseDescription = Record<string, unknown>;

// A checked project on its way to becoming a release.
export type ReleasePlan = {
  project: ComposeProject;
  described: ReleaseDescription;
  commit: string;
  onLog: (line: string) => void;
  options: BuildOptions;
};
