import { PassThrough } from 'node:stream';
import type { Queryable } from '../../infra/db/database.js';
import { type LogRow, toLineOut } from './log-line.js';
import { type LiveBatch, type LogHub, toNdjson } from './log-hub.js';
import type { LogIntake } from './log-intake.js';
import { newestLogId, newestOriginSeq, readHistory, readLogsAfter } from './log-store.js';

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
// - with NATS, other processes' lines also come relayed before they are stored (log-relay.ts).
//   Each process's lines of a device are stored in their order there (`origin_seq`), so the
//   stream keeps, per process, the newest seq it showed (or left before the seam): a relayed
//   batch that continues it (its `prev` is at most that) is shown at once; one after a gap
//   waits until the database's rows fill the gap, and rows already shown are skipped.

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
// Relayed lines waiting for the database to fill a gap before them, at most; beyond, the gap is
// given up (those lines are skipped, as lines the storage dropped would be).
const maxWaitingLines = 5000;

type Waiting = { prev: number; batch: LiveBatch };

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
  // Per other process: the newest seq shown or before the seam, and relayed batches waiting.
  const shown = new Map<number, number>();
  const waiting = new Map<number, Waiting[]>();
  let waitingLines = 0;

  const write = (text: string): void => {
    if (closed || text === '') return;
    stream.write(text);
    if (stream.writableLength > maxBufferedBytes) close();
  };

  // Relayed lines of `origin`, those past what was shown.
  const showRelayed = (origin: number, batch: LiveBatch): void => {
    const known = shown.get(origin) ?? 0;
    const last = batch.lines.at(-1);
    if (!last || last.seq <= known) return;
    const first = batch.lines[0];
    write(
      first && first.seq > known
        ? batch.text()
        : toNdjson(batch.lines.filter((line) => line.seq > known)),
    );
    shown.set(origin, last.seq);
  };

  // Shows the waiting batches of `origin` that continue what was shown.
  const showWaiting = (origin: number): void => {
    const queue = waiting.get(origin) ?? [];
    for (let next = queue[0]; next && next.prev <= (shown.get(origin) ?? -1); next = queue[0]) {
      queue.shift();
      waitingLines -= next.batch.lines.length;
      showRelayed(origin, next.batch);
    }
    if (queue.length === 0) waiting.delete(origin);
  };

  // Rows of other processes not shown yet (relayed ones are skipped), in order.
  const unseen = (rows: readonly LogRow[]): LogRow[] =>
    rows.filter((row) => {
      if (row.origin === null || row.origin_seq === null) return true;
      if (row.origin_seq <= (shown.get(row.origin) ?? 0)) return false;
      shown.set(row.origin, row.origin_seq);
      return true;
    });

  // Sends what other processes stored past lastId; signals while reading trigger one more pass.
  // Then the waiting relayed batches that the rows now continue.
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
        write(ndjson(unseen(rows)));
        if (rows.length === readBatch) {
          again = true;
          continue;
        }
        // A process relaying before any of its rows was read: its lines up to lastId are
        // history (shown or left before the seam).
        for (const origin of waiting.keys()) {
          if (shown.has(origin)) continue;
          const seq = await newestOriginSeq(db, {
            deviceId: options.deviceId,
            origin,
            upToId: lastId,
          });
          if (closed) return;
          shown.set(origin, Math.max(seq, shown.get(origin) ?? 0));
        }
        for (const origin of [...waiting.keys()]) showWaiting(origin);
      } while (again && !closed);
    } catch (error) {
      deps.onError(error);
    } finally {
      reading = false;
    }
  };

  const relayed = (origin: number, prev: number, batch: LiveBatch): void => {
    const known = shown.get(origin);
    if (!early && !waiting.has(origin) && known !== undefined && prev <= known) {
      showRelayed(origin, batch);
      return;
    }
    const queue = waiting.get(origin) ?? [];
    waiting.set(origin, queue);
    queue.push({ prev, batch });
    waitingLines += batch.lines.length;
    // Too much waits: the oldest gap is given up, or before the seam is known (the history is
    // being read, the database is away) the oldest batch is left to the database.
    while (waitingLines > maxWaitingLines && queue[0]) {
      const oldest = queue[0];
      if (early || known === undefined) {
        queue.shift();
        waitingLines -= oldest.batch.lines.length;
        continue;
      }
      shown.set(origin, Math.max(shown.get(origin) ?? known, oldest.prev));
      showWaiting(origin);
    }
    if (queue.length === 0) waiting.delete(origin);
    if (!early) void catchUp();
  };

  // Everything received after this is live.
  const seam = intake.lastSeq();
  const unsubscribe = deps.hub.subscribe(options.deviceId, {
    lines(batch) {
      if (early) early.push(batch);
      else write(batch.text());
    },
    relayed,
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
    // Other processes' lines up to their newest in the history are before the seam.
    for (const row of history) {
      if (row.origin !== null && row.origin !== intake.origin && row.origin_seq !== null) {
        shown.set(row.origin, Math.max(row.origin_seq, shown.get(row.origin) ?? 0));
      }
    }
  } catch (error) {
    close();
    throw error;
  }
  const arrived = early;
  early = undefined;
  for (const batch of arrived) write(batch.text());
  // Other processes' lines stored while the history was read, and the relayed ones that wait.
  void catchUp();
  return { stream, close };
};
