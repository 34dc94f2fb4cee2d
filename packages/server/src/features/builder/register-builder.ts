import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { builderLimits } from '@flotilla/shared/releases/builder-limits';
import type { AppContext } from '../../app-context.js';
import { badRequest } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { buildRelease } from './build-release.js';
import { registerBuildFromUrl } from './register-build-from-url.js';
import { readProjectArchive } from './project-archive.js';

const params = z.object({ id: z.coerce.number().int().min(1).max(maxRowId) });

const tarTypes = ['application/x-tar', 'application/gzip', 'application/octet-stream'];

// The whole upload, refused with a 400 naming the limit once it grows past it. Like Fastify's own
// body limit, reading just stops (the socket is left to the server, so the answer still reaches
// the client).
const readUpload = (stream: Readable): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', reject);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= builderLimits.projectBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      reject(
        badRequest(`The project is larger than ${builderLimits.projectBytes / 1024 / 1024} MiB`),
      );
    };
    const onEnd = (): void => resolve(Buffer.concat(chunks));
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', reject);
  });

// The compose builder's upload route (the console's "Create release"): a project tarball in the
// body becomes a release of the fleet (features/builder/build-release.ts).
export const registerBuilder = (app: FastifyInstance, ctx: AppContext): void => {
  registerBuildFromUrl(app, ctx);
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
        if (!Buffer.isBuffer(request.body)) {
          throw badRequest(`Send the project as a tarball (Content-Type: ${tarTypes.join(', ')})`);
        }
        const files = await readProjectArchive(request.body);
        const result = await buildRelease(ctx, request.actor, id, files);
        return reply.status(201).send(result);
      },
    );
  });
};
