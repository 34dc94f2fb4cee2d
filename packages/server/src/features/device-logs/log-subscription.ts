import { PassThrough } from 'node:stream';
import type { Queryable } from '../../infra/db/database.js';
import { type LogRow, toLineOut } from './log-line.js';
import type { LiveBatch, LogHub } from './log-hub.js';
import type { LogIntake } from './log-intake.js';
import { newestLogId, readHistory, readLogsAfter } from './log-store.js';

// GET /device/v2/:uuid/logs?stream=1 (the SDK's logs.subscribe): NDJSON kept open, history
// first, then every new line, with a bare "\n" every keepAliveMs so proxies and clients know the
// stream is alive. A client that stops reading is cut off rather than buffered without end.
//
// The seam between history and live lines, with nothing lost or sent twice:
// - lines this process receives come from ingest directly (log-hub.ts). Those up to `lastSeq()`
//   at subscription are history: the stream waits until they are stored, then reads them. Later
//   ones are live; one already stored by the time the history is read is left out of it.
// - lines other processes store are read from the database past the newest id the history
//   covered (excluding this process's own), whenever the hub says there are some.

export type SubscriptionOptions = {
  deviceId: number;
  count: number;
  start: number | undefined;
  keepAliveMs: number;
};

export type SubscriptionDeps = {
  db: Queryable;
  hub: LogHub;
  intake: LogIntake;
  // Resolves once this process's lines of the device so far are stored (log-writer.ts).
  settled(deviceId: number): Promise<void>;
  onError(error: unknown): void;
};

const readBatch = 1000;
const maxBufferedBytes = 4 * 1024 * 1024;

const ndjson = (rows: readonly LogRow[]): string => {
  let text = '';
  for (const row of rows) text += `${JSON.stringify(toLineOut(row))}\n`;
  return text;
};

export type LogSubscription = { stream: PassThrough; close: () => void };

export const openLogSubscription = async (
  deps: SubscriptionDeps,
  options: SubscriptionOptions,
): Promise<LogSubscription> => {
  const { db, intake } = deps;
  const stream = new PassThrough();
  // The newest row id read from the database (other processes' lines continue after it).
  let lastId = 0;
  let reading = false;
  let again = false;
  let closed = false;
  // Live lines that arrive before the history is out wait here.
  let early: LiveBatch[] | undefined = [];

  const write = (text: string): void => {
    if (closed || text === '') return;
    stream.write(text);
    if (stream.writableLength > maxBufferedBytes) close();
  };

  // Sends what other processes stored past lastId; signals while reading trigger one more pass.
  const catchUp = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const rows = await readLogsAfter(db, {
          deviceId: options.deviceId,
          afterId: lastId,
          exceptOrigin: intake.origin,
          limit: readBatch,
        });
        if (closed) return;
        const last = rows.at(-1);
        if (last) lastId = last.id;
        write(ndjson(rows));
        if (rows.length === readBatch) again = true;
      } while (again && !closed);
    } catch (error) {
      deps.onError(error);
    } finally {
      reading = false;
    }
  };

  // Everything received after this is live.
  const seam = intake.lastSeq();
  const unsubscribe = deps.hub.subscribe(options.deviceId, {
    lines(batch) {
      if (early) early.push(batch);
      else write(batch.text());
    },
    stored() {
      if (!early) void catchUp();
    },
  });
  const keepAlive = setInterval(() => write('\n'), options.keepAliveMs);
  function close(): void {
    if (closed) return;
    closed = true;
    clearInterval(keepAlive);
    unsubscribe();
    stream.end();
  }

  try {
    await deps.settled(options.deviceId);
    // Lines up to this id are history; other processes' later ones are read by catchUp.
    lastId = await newestLogId(db, options.deviceId);
    const history = await readHistory(db, {
      deviceId: options.deviceId,
      count: options.count,
      start: options.start,
      upToId: lastId,
    });
    // This process's lines past the seam come live.
    const isLive = (row: LogRow): boolean =>
      row.origin === intake.origin && row.origin_seq !== null && row.origin_seq > seam;
    write(ndjson(history.filter((row) => !isLive(row))));
  } catch (error) {
    close();
    throw error;
  }
  const waiting = early;
  early = undefined;
  for (const batch of waiting) write(batch.text());
  // Other processes' lines stored while the history was read.
  void catchUp();
  return { stream, close };
};
