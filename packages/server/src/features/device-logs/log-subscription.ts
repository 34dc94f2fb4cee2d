import { PassThrough } from 'node:stream';
import type { Queryable } from '../../infra/db/database.js';
import { type LogRow, toLineOut } from './log-line.js';
import type { LogHub } from './log-hub.js';
import { newestLogId, readHistory, readLogsAfter } from './log-store.js';

// GET /device/v2/:uuid/logs?stream=1 (the SDK's logs.subscribe): NDJSON kept open, history
// first, then every new line, with a bare "\n" every keepAliveMs so proxies and clients know the
// stream is alive. A client that stops reading is cut off rather than buffered without end.

export type SubscriptionOptions = {
  deviceId: number;
  count: number;
  start: number | undefined;
  keepAliveMs: number;
};

const readBatch = 1000;
const maxBufferedBytes = 4 * 1024 * 1024;

const ndjson = (rows: readonly LogRow[]): string =>
  rows.map((row) => `${JSON.stringify(toLineOut(row))}\n`).join('');

export type LogSubscription = { stream: PassThrough; close: () => void };

export const openLogSubscription = async (
  db: Queryable,
  hub: LogHub,
  options: SubscriptionOptions,
  onError: (error: unknown) => void,
): Promise<LogSubscription> => {
  const stream = new PassThrough();
  let lastId = 0;
  let reading = false;
  let again = false;
  let closed = false;
  // Signals before the history is out would re-send it: they wait for the catch-up after it.
  let ready = false;

  const write = (text: string): void => {
    if (closed || text === '') return;
    stream.write(text);
    if (stream.writableLength > maxBufferedBytes) close();
  };

  // Sends what arrived past lastId; signals that come while reading trigger one more pass.
  const catchUp = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const rows = await readLogsAfter(db, options.deviceId, lastId, readBatch);
        if (closed) return;
        const last = rows.at(-1);
        if (last) lastId = last.id;
        write(ndjson(rows));
        if (rows.length === readBatch) again = true;
      } while (again && !closed);
    } catch (error) {
      onError(error);
    } finally {
      reading = false;
    }
  };

  // Subscribed before the history is read, so nothing written in between is missed.
  const unsubscribe = await hub.subscribe(options.deviceId, () => {
    if (ready) void catchUp();
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
    // Lines up to this id are history; anything later is live.
    lastId = await newestLogId(db, options.deviceId);
    const history = await readHistory(db, {
      deviceId: options.deviceId,
      count: options.count,
      start: options.start,
      upToId: lastId,
    });
    write(ndjson(history));
  } catch (error) {
    close();
    throw error;
  }
  // Lines written while the history was read.
  ready = true;
  void catchUp();
  return { stream, close };
};
