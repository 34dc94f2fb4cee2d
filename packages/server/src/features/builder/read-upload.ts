import type { Readable } from 'node:stream';
import { builderLimits } from '@flotilla/shared/releases/builder-limits';
import { badRequest } from '../../infra/errors/api-error.js';

// The content types a project tarball is uploaded with (gzipped or not: the tar reader tells).
export const tarTypes = ['application/x-tar', 'application/gzip', 'application/octet-stream'];

// The whole upload, refused with a 400 naming the limit once it grows past it. Like Fastify's own
// body limit, reading just stops (the socket is left to the server, so the answer still reaches
// the client).
export const readUpload = (stream: Readable): Promise<Buffer> =>
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
