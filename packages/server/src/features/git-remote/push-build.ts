import path from 'node:path';
import { builderLimits } from '@flotilla/shared/releases/builder-limits';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { ApiError } from '../../infra/errors/api-error.js';
import { mapDatabaseError } from '../../infra/odata/database-errors.js';
import type { BuildLimit } from '../builder/build-limit.js';
import { buildRelease } from '../builder/build-release.js';
import { DiscardedBuild } from '../builder/build-outcome.js';
import { readProjectArchive } from '../builder/project-archive.js';
import type { RemoteFleet } from './fleet-repository.js';
import { type GitCommand, gitEnvironment } from './git-command.js';
import type { HookHandler } from './hook-channel.js';

// The branches whose push builds a release (balena builds the default branch).
export const buildBranches = ['refs/heads/main', 'refs/heads/master'] as const;

type RefUpdate = { oldSha: string; newSha: string; ref: string };

const zeroSha = /^0+$/;

const parseRefLine = (line: string): RefUpdate | undefined => {
  const match = /^([0-9a-f]{40,64}) ([0-9a-f]{40,64}) (refs\/\S+)$/.exec(line.trim());
  return match?.[1] && match[2] && match[3]
    ? { oldSha: match[1], newSha: match[2], ref: match[3] }
    : undefined;
};

export type PushBuildDeps = {
  ctx: AppContext;
  git: GitCommand;
  actor: Actor;
  fleet: RemoteFleet;
  // The fleet's bare repository (absolute).
  repository: string;
  // Counts the build against the pusher, with the builder's uploads (a 429 refuses the push).
  countBuild: BuildLimit;
  log: { error(details: object, message: string): void };
};

// The pushed objects sit in a quarantine directory inside the repository until the hook accepts
// them; git archive reads them from there. Only a directory git itself names that way is used.
export const quarantineOf = (repository: string, given: string | null): string | undefined => {
  if (given === null) return undefined;
  const resolved = path.resolve(given);
  const objects = path.join(repository, 'objects');
  return path.dirname(resolved) === objects &&
    /^tmp_objdir-incoming-[\w-]+$/.test(path.basename(resolved))
    ? resolved
    : undefined;
};

const existingRelease = async (
  ctx: AppContext,
  fleetId: number,
  commit: string,
): Promise<number | undefined> => {
  const { rows } = await ctx.db.query<{ id: number }>(
    'SELECT "id" FROM "release" WHERE "belongs_to__application" = $1 AND "commit" = $2',
    [fleetId, commit],
  );
  return rows[0]?.id;
};

// What the pre-receive hook of a push runs: a push to main (or master) builds the pushed commit
// with the compose builder, its log going back to the git client; a failed build refuses the push
// and leaves nothing behind. Pushes to other branches are kept and not built.
export const pushBuildHandler =
  (deps: PushBuildDeps): HookHandler =>
  async (request, say) => {
    const updates = request.refLines.map(parseRefLine);
    if (updates.some((update) => update === undefined)) {
      say('The push could not be read');
      return 1;
    }
    const pushed = updates.filter(
      (update): update is RefUpdate => update !== undefined && !zeroSha.test(update.newSha),
    );
    const target = buildBranches
      .map((branch) => pushed.find((update) => update.ref === branch))
      .find((update) => update !== undefined);
    for (const update of pushed) {
      if (update === target) continue;
      say(
        `${update.ref.replace(/^refs\/heads\//, '')}: stored, not built (only a push to main or master builds a release)`,
      );
    }
    if (!target) return 0;
    const commit = target.newSha;
    const built = await existingRelease(deps.ctx, deps.fleet.id, commit);
    if (built !== undefined) {
      say(
        `Commit ${commit.slice(0, 7)} is already release ${built} of ${deps.fleet.slug}; nothing to build`,
      );
      return 0;
    }
    const quarantine = quarantineOf(deps.repository, request.quarantine);
    say(`Building ${commit.slice(0, 7)} for fleet ${deps.fleet.slug} ...`);
    try {
      await deps.countBuild(deps.actor);
      const archive = await deps.git.archive(
        commit,
        gitEnvironment({
          GIT_DIR: deps.repository,
          ...(quarantine
            ? {
                GIT_OBJECT_DIRECTORY: quarantine,
                GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(deps.repository, 'objects'),
              }
            : {}),
        }),
        builderLimits.projectBytes,
      );
      const files = await readProjectArchive(archive);
      const result = await buildRelease(deps.ctx, deps.actor, deps.fleet.id, files, say, {
        commit,
        discardFailed: true,
      });
      say(`Release ${result.releaseId} of ${deps.fleet.slug} created from ${commit.slice(0, 7)}`);
      return 0;
    } catch (thrown) {
      if (thrown instanceof DiscardedBuild) {
        say('The push is refused: the build failed, and nothing was created');
        return 1;
      }
      const error = mapDatabaseError(thrown);
      if (error instanceof ApiError && error.code !== 'internal') {
        say(`Error: ${error.message}`);
        say('The push is refused, and nothing was created');
        return 1;
      }
      deps.log.error({ err: thrown }, 'git push build failed');
      say('The build failed on the server; the push is refused');
      return 1;
    }
  };
