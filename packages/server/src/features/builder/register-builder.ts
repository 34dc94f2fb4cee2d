import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { badRequest } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { registerBuildCancellation } from './build-cancellation.js';
import { assertCanCreateRelease, buildRelease } from './build-release.js';
import { streamBuild, wantsStream } from './build-stream.js';
import { fetchProject } from './fetch-project.js';
import { fetchOptionsOf, registerBuildFromUrl } from './register-build-from-url.js';
import { type ProjectFiles, readProjectArchive } from './project-archive.js';
import { type BuildLimit, createBuildLimit } from './build-limit.js';
import { readUpload, tarTypes } from './read-upload.js';
import { registerRemoteBuild } from './register-remote-build.js';

const params = z.object({ id: z.coerce.number().int().min(1).max(maxRowId) });
const urlBody = z.object({
  url: z
    .string()
    .trim()
    .max(2048)
    .regex(/^https?:\/\//i, 'url must be an http or https URL'),
});

// The compose builder's route for the console's "Create release": a project tarball in the body,
// or a URL to download it from, becomes a release of the fleet (build-release.ts).
export const registerBuilder = (
  app: FastifyInstance,
  ctx: AppContext,
  {
    countUrlBuild = createBuildLimit(ctx, 'url'),
    countUpload = createBuildLimit(ctx, 'upload'),
  }: { countUrlBuild?: BuildLimit; countUpload?: BuildLimit } = {},
): void => {
  const fetchOptions = fetchOptionsOf(ctx);
  registerBuildCancellation(app, ctx);
  registerBuildFromUrl(app, ctx, fetchOptions, countUrlBuild);
  registerRemoteBuild(app, ctx, countUpload);
  void app.register(async (scoped) => {
    scoped.addContentTypeParser(tarTypes, (_request, payload, done) => {
      readUpload(payload).then(
        (body) => done(null, body),
        (error: Error) => done(error),
      );
    });
    scoped.post(
      '/builder/v1/applications/:id/releases',
      { config: { access: 'user' } },
      async (request, reply) => {
        const { id } = parseBody(params, request.params);
        // The project: the uploaded tarball, or one downloaded from a URL (as /v3/buildFromUrl).
        let project: (onLog: (line: string) => void) => Promise<ProjectFiles>;
        if (Buffer.isBuffer(request.body)) {
          await assertCanCreateRelease(ctx, request.actor, id);
          await countUpload(request.actor);
          const files = await readProjectArchive(request.body);
          project = () => Promise.resolve(files);
        } else if (typeof request.body === 'object' && request.body !== null) {
          const { url } = parseBody(urlBody, request.body);
          await assertCanCreateRelease(ctx, request.actor, id);
          await countUrlBuild(request.actor);
          project = async (onLog) =>
            await readProjectArchive(await fetchProject(url, { ...fetchOptions, onLog }));
        } else {
          throw badRequest(
            `Send the project as a tarball (Content-Type: ${tarTypes.join(', ')}) or its URL as JSON {"url": ...}`,
          );
        }
        const build = async (onLog: (line: string) => void) =>
          await buildRelease(ctx, request.actor, id, await project(onLog), onLog);
        // The console reads the log as it is written; other clients get the result at the end.
        if (wantsStream(request)) return streamBuild(request, reply, build);
        return reply.status(201).send(await build(() => undefined));
      },
    );
  });
};
