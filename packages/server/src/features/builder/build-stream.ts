import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../infra/errors/api-error.js';
import { mapDatabaseError } from '../../infra/odata/database-errors.js';
import type { BuildResult } from './build-outcome.js';

// What a streamed build sends, one JSON object a line (NDJSON): each log line as it is written,
// then the result or the reason it failed. The console's Create release dialog reads it live.
export type BuildEvent = { line: string } | { result: BuildResult } | { error: string };

export const wantsStream = (request: FastifyRequest): boolean =>
  /application\/x-ndjson/i.test(request.headers.accept ?? '');

// Runs `build` with the log going to the client as it is written. Refusals found before the
// build starts are ordinary 4xx answers (the caller throws them before calling this); a failure
// during the build arrives as the last event, and the build's transaction has rolled back.
export const streamBuild = (
  request: FastifyRequest,
  reply: FastifyReply,
  build: (onLog: (line: string) => void) => Promise<BuildResult>,
): FastifyReply => {
  const stream = new PassThrough();
  const send = (event: BuildEvent): void => {
    stream.write(`${JSON.stringify(event)}\n`);
  };
  void build((line) => send({ line }))
    .then(
      (result) => send({ result }),
      (thrown: unknown) => {
        const error = mapDatabaseError(thrown);
        if (error instanceof ApiError && error.code !== 'internal') {
          send({ error: error.message });
          return;
        }
        request.log.error({ err: thrown }, 'build failed');
        send({ error: 'The build failed on the server' });
      },
    )
    .finally(() => stream.end());
  return reply
    .type('application/x-ndjson')
    .header('Cache-Control', 'no-cache')
    .header('X-Accel-Buffering', 'no')
    .send(stream);
};
