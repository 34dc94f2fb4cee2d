import { PassThrough } from 'node:stream';
import type { Queryable } from '../../infra/db/database.js';
import type { PermittedReads, StreamedEvent } from './stream-reads.js';

// Events read per statement while catching up.
const batchSize = 500;
// A client that reads slower than this much is behind: closed, to resume with Last-Event-ID.
const maxBufferedBytes = 1_000_000;

export type StreamConnection = {
  stream: PassThrough;
  // Sends every permitted event committed since the last one sent (a notification, a catch-up).
  pump(): void;
  // A comment line that keeps proxies from closing an idle stream.
  heartbeat(): void;
  close(): void;
};

const eventText = (event: StreamedEvent): string => {
  const { position, ...envelope } = event;
  return `id: ${position}\ndata: ${JSON.stringify(envelope)}\n\n`;
};

// Tells the client to refetch what it shows: it missed more than the stream replays.
export const resetText = (position: string, reason: string): string =>
  `id: ${position}\nevent: reset\ndata: ${JSON.stringify({ reason })}\n\n`;

// One open stream: sends events after `position` in stream order, one read at a time (a wake-up
// during a read reads again after it), so nothing is sent twice or skipped.
export const openStreamConnection = (deps: {
  db: Queryable;
  reads: PermittedReads | undefined;
  position: string;
  onError: (error: unknown) => void;
}): StreamConnection => {
  const stream = new PassThrough();
  let position = deps.position;
  let running = false;
  let again = false;
  let closed = false;

  const close = (): void => {
    if (closed) return;
    closed = true;
    stream.end();
  };
  const write = (text: string): void => {
    if (closed) return;
    stream.write(text);
    if (stream.writableLength > maxBufferedBytes) close();
  };

  const run = async (): Promise<void> => {
    const reads = deps.reads;
    if (!reads) return;
    do {
      again = false;
      for (;;) {
        const events = await reads.after(deps.db, position, batchSize);
        for (const event of events) {
          write(eventText(event));
          position = event.position;
        }
        if (events.length < batchSize || closed) break;
      }
    } while (again && !closed);
  };

  const pump = (): void => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    run()
      .catch((error: unknown) => {
        deps.onError(error);
        close();
      })
      .finally(() => {
        running = false;
        if (again && !closed) pump();
      });
  };

  stream.on('close', () => {
    closed = true;
  });
  return { stream, pump, heartbeat: () => write(': heartbeat\n\n'), close };
};
