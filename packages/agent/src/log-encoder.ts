import type { Transform } from 'node:stream';
import { constants, createGzip } from 'node:zlib';
import { StoredGzip } from './stored-gzip.js';

// The gzip body of a log stream and how to push what is pending onto the wire.
export type Encoder = { stream: Transform; flush(): void };

export const createEncoder = (compression: 'deflate' | 'stored'): Encoder => {
  if (compression === 'stored') {
    const stored = new StoredGzip();
    return { stream: stored, flush: () => stored.flush() };
  }
  const gzip = createGzip();
  return { stream: gzip, flush: () => gzip.flush(constants.Z_SYNC_FLUSH) };
};
