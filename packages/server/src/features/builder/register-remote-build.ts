import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { ApiError, badRequest } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { mapDatabaseError } from '../../infra/odata/database-errors.js';
import { type BuildLimit, createBuildLimit } from './build-limit.js';
import { clientGoneLine } from './build-cancellation.js';
import type { BuildEnd } from './build-outcome.js';
import type { BuildStop } from './build-queue.js';
import { assertCanCreateRelease, buildRelease, startRelease } from './build-release.js';
import { type ProjectFiles, readProjectArchive } from './project-archive.js';
import { readUpload } from './read-upload.js';
import { remoteBuildStream } from './remote-build-stream.js';
import { startedMessage } from './register-build-from-url.js';
import { markFailed, serverFailureLine } from './url-build.js';
import { type FleetName, visibleFleet } from './visible-fleet.js';

// balena-cli sends its flags as 'true'/'false', and an unset one as an empty value.
const flag = z.enum(['true', 'false', '']).optional();

// balena push's builder request (wire contract: POST <builderUrl>/v3/build?slug=...).
const query = z.object({
  slug: z.string().trim().max(300).optional(),
  owner: z.string().trim().max(200).optional(),
  app: z.string().trim().max(200).optional(),
  dockerfilePath: z.string().trim().max(1024).optional(),
  emulated: flag,
  nocache: flag,
  headless: flag,
  isdraft: flag,
});

const fleetNameOf = ({ slug, owner, app }: z.infer<typeof query>): FleetName => {
  if (slug) return { slug };
  if (owner && app) return { owner, app };
  throw badRequest('slug (<organization>/<fleet>) or owner and app are required');
};

// What balena-cli sends for a project's usual Dockerfile names (or no --dockerfile at all).
const defaultDockerfiles = new Set(['', 'Dockerfile', 'Dockerfile.template']);

type RemoteBuild = {
  actor: Actor;
  fleetId: number;
  releaseId: number;
  files: ProjectFiles;
  noCache: boolean;
  log: FastifyBaseLogger;
  // Aborts when the client that streams the log goes away (balena push's Ctrl-C).
  signal?: AbortSignal;
};

// The build into the release created before: every way it can end leaves the release success or
// failed with the reason in its build log; nothing is thrown.
const runRemoteBuild = async (
  ctx: AppContext,
  job: RemoteBuild,
  onLog: (line: string) => void,
): Promise<BuildEnd> => {
  const log: string[] = [];
  const note = (line: string): void => {
    log.push(line);
    onLog(line);
  };
  try {
    const result = await buildRelease(ctx, job.actor, job.fleetId, job.files, note, {
      releaseId: job.releaseId,
      noCache: job.noCache,
      ...(job.signal === undefined ? {} : { signal: job.signal }),
    });
    return result.status;
  } catch (thrown) {
    const error = mapDatabaseError(thrown);
    if (error instanceof ApiError && error.code !== 'internal') {
      note(`Build failed: ${error.message}`);
    } else {
      job.log.error({ err: thrown, releaseId: job.releaseId }, 'balena push build failed');
      note(serverFailureLine);
    }
    try {
      await markFailed(ctx, job, log);
    } catch (unmarked) {
      // Left running, the release times out after 120 minutes (release-status.ts).
      job.log.error({ err: unmarked, releaseId: job.releaseId }, 'could not end a failed build');
    }
    return 'failed';
  }
};

// The builder endpoint of `balena push <org>/<fleet>`: the project tarball (gzipped, without a
// content type) in the body. Refusals come before anything is created, as 4xx answers: the fleet
// as the caller may see it (an invisible one answers as an unknown one), their right to create
// its releases, the upload builds of the hour (shared with the console's uploads), the tarball.
// Then the release is created (running) and the build log streams to the CLI as it is written;
// headless (balena push --detached), the answer names the release at once and the build goes on.
export const registerRemoteBuild = (
  app: FastifyInstance,
  ctx: AppContext,
  countUpload: BuildLimit = createBuildLimit(ctx, 'upload'),
): void => {
  // Builds still running when the server closes are waited for (each ends within the limits).
  const running = new Set<Promise<void>>();
  const track = (build: Promise<unknown>, log: FastifyBaseLogger): void => {
    const tracked = build
      .then(
        () => undefined,
        (thrown: unknown) => log.error({ err: thrown }, 'balena push build stream failed'),
      )
      .finally(() => running.delete(tracked));
    running.add(tracked);
  };
  app.addHook('onClose', async () => {
    await Promise.all(running);
  });
  void app.register(async (scoped) => {
    // balena-cli names no content type; the tar reader tells a gzipped tarball from a plain one.
    scoped.addContentTypeParser('*', (_request, payload, done) => {
      readUpload(payload).then(
        (body) => done(null, body),
        (error: Error) => done(error),
      );
    });
    scoped.post('/v3/build', { config: { access: 'user' } }, async (request, reply) => {
      const options = parseBody(query, request.query);
      const name = fleetNameOf(options);
      const fleet = await visibleFleet(ctx, request.actor, name);
      await assertCanCreateRelease(ctx, request.actor, fleet.id);
      if (!Buffer.isBuffer(request.body)) {
        throw badRequest('Send the project as a tarball in the body (balena push does)');
      }
      await countUpload(request.actor);
      const dockerfile = options.dockerfilePath ?? '';
      // balena-cli tars the project folder itself: its root is the project's.
      const files = await readProjectArchive(request.body, {
        flatten: false,
        ...(defaultDockerfiles.has(dockerfile) ? {} : { dockerfile }),
      });
      const releaseId = await startRelease(ctx, request.actor, fleet.id, {
        draft: options.isdraft === 'true',
      });
      const job = {
        actor: request.actor,
        fleetId: fleet.id,
        releaseId,
        files,
        noCache: options.nocache === 'true',
        log: request.log,
      };
      if (options.headless === 'true') {
        track(
          runRemoteBuild(ctx, job, () => undefined),
          request.log,
        );
        return { started: true, releaseId, message: startedMessage(releaseId) };
      }
      // balena-cli's Ctrl-C ends the request (and cancels the release): the build stops with it.
      const gone = new AbortController();
      const clientGone: BuildStop = { status: 'cancelled', line: clientGoneLine };
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) gone.abort(clientGone);
      });
      const out = remoteBuildStream();
      out.send({ type: 'metadata', resource: 'buildLogId', value: String(releaseId) });
      out.send({ message: `[Info] Building release ${releaseId} of ${fleet.slug}` });
      const build = runRemoteBuild(ctx, { ...job, signal: gone.signal }, (line) =>
        out.send({ message: line }),
      ).then((status) => {
        out.send(
          status === 'success'
            ? { message: `[Success] Release ${releaseId} built` }
            : {
                message: `[Error] Release ${releaseId} ${status}: see its build log above`,
                isError: true,
              },
        );
      });
      track(
        build.finally(() => out.end()),
        request.log,
      );
      return reply
        .type('application/json')
        .header('Cache-Control', 'no-cache')
        .header('X-Accel-Buffering', 'no')
        .send(out.stream);
    });
  });
};
