import { isDatabaseUnavailable } from '../../infra/db/connection-errors.js';
import type { Queryable } from '../../infra/db/database.js';
import { ChunkedQueue } from './chunked-queue.js';
import type { IngestedLine } from './log-line.js';
import { insertLogLines, type LogAnnouncer, trimLogs } from './log-store.js';

// Stores what ingest accepted. Live streams get lines before they are stored (log-hub.ts), so
// storage is free to batch for throughput:
// - Devices are spread over `lanes`. A lane stores its lines in order, one batch at a time, and
//   lanes run in parallel: a device's lines keep their order (ids follow it) while several
//   inserts are in flight. An idle lane waits `flushMs` for more lines; one with maxBatchLines
//   waiting stores them at once.
// - Retention: a device is trimmed back to `retention` lines once it got more than `trimSlack`
//   since its last trim, so the DELETE is paid every few hundred lines, not on every batch.
// - Ingest never waits for storage, so live streams stay current however slow the database is.
//   A lane holds at most maxQueuedLines / lanes lines and drops its oldest beyond that, with a
//   warning when dropping starts and one with the count when it stops: under sustained overload
//   lines are lost here rather than piling up in the devices' connections.
// - The database unavailable: batches are kept (within that bound) and retried, the delay
//   doubling up to retryMaxMs. Other failures (a bad row) retry each device's lines alone, then
//   drop them with the error logged.

export type WriterLog = {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
};

export type LogWriterOptions = {
  db: Queryable;
  // This process's id, stored with every line (log-intake.ts).
  origin: number;
  retention: number;
  trimSlack: number;
  lanes: number;
  flushMs: number;
  maxBatchLines: number;
  maxQueuedLines: number;
  retryMinMs: number;
  retryMaxMs: number;
  log: WriterLog;
  onError: (error: unknown) => void;
  // With the NATS bus: announces stored lines after each insert (log-store.ts); without, the
  // insert NOTIFYs itself.
  announce?: LogAnnouncer;
};

export type LogWriter = {
  // Queues lines of one device, in order.
  write(lines: readonly IngestedLine[]): void;
  // Resolves once every line of the device queued so far is stored or dropped, or at once while
  // the database is unavailable (the lines are then held for later).
  settled(deviceId: number): Promise<void>;
  // Stores what is queued (dropping it if the database is unavailable) and refuses further lines.
  close(): Promise<void>;
};

type Lane = {
  queue: ChunkedQueue<IngestedLine>;
  // Lines ever queued, and how many of the oldest are stored or dropped.
  queued: number;
  settled: number;
  waiters: { upTo: number; resolve: () => void }[];
  timer: NodeJS.Timeout | undefined;
  current: Promise<void> | undefined;
  // Ends a retry pause early (close).
  wake: (() => void) | undefined;
};

const byDevice = (lines: readonly IngestedLine[]): IngestedLine[][] => {
  const groups = new Map<number, IngestedLine[]>();
  for (const line of lines) {
    const group = groups.get(line.deviceId);
    if (group) group.push(line);
    else groups.set(line.deviceId, [line]);
  }
  return [...groups.values()];
};

export const createLogWriter = (options: LogWriterOptions): LogWriter => {
  const { db, origin, log } = options;
  const lanes: Lane[] = Array.from({ length: Math.max(1, options.lanes) }, () => ({
    queue: new ChunkedQueue<IngestedLine>(),
    queued: 0,
    settled: 0,
    waiters: [],
    timer: undefined,
    current: undefined,
    wake: undefined,
  }));
  const laneLimit = Math.max(
    options.maxBatchLines,
    Math.ceil(options.maxQueuedLines / lanes.length),
  );
  const sinceTrim = new Map<number, number>();
  let closed = false;
  let down = false;
  // Lines dropped in the current stretch of dropping, and as of the previous stored batch.
  let dropped = 0;
  let droppedBefore = 0;
  let retryDelay = options.retryMinMs;

  const laneOf = (deviceId: number): Lane => {
    const lane = lanes[deviceId % lanes.length];
    if (!lane) throw new Error(`no log lane for device ${deviceId}`);
    return lane;
  };

  const settle = (lane: Lane, count: number): void => {
    lane.settled += count;
    if (lane.waiters.length === 0) return;
    const still: Lane['waiters'] = [];
    for (const waiter of lane.waiters) {
      if (waiter.upTo <= lane.settled || down) waiter.resolve();
      else still.push(waiter);
    }
    lane.waiters = still;
  };

  const drop = (lane: Lane, count: number): void => {
    if (count <= 0) return;
    lane.queue.drop(count);
    if (dropped === 0) {
      log.warn(
        { limit: options.maxQueuedLines },
        'device logs: too many lines wait for the database; dropping the oldest',
      );
    }
    dropped += count;
    settle(lane, count);
  };

  const wentDown = (): void => {
    if (down) return;
    down = true;
    log.warn(
      {},
      'device logs: the database is unavailable; keeping lines in memory until it is back',
    );
    for (const lane of lanes) settle(lane, 0);
  };

  // After each stored batch: the end of an outage, or of a stretch of dropping (no line dropped
  // since the previous batch), is logged with the count.
  const stored = (): void => {
    retryDelay = options.retryMinMs;
    if (down) {
      down = false;
      log.info({ dropped }, 'device logs: storing lines again');
    } else if (dropped > 0 && dropped === droppedBefore) {
      log.warn({ dropped }, 'device logs: storage keeps up again; lines were dropped meanwhile');
    } else {
      droppedBefore = dropped;
      return;
    }
    dropped = 0;
    droppedBefore = 0;
  };

  // Trims the devices that got more than trimSlack lines since their last trim.
  const trimDue = async (batch: readonly IngestedLine[]): Promise<void> => {
    const due = new Set<number>();
    for (const line of batch) {
      const count = (sinceTrim.get(line.deviceId) ?? 0) + 1;
      sinceTrim.set(line.deviceId, count);
      if (count > options.trimSlack) due.add(line.deviceId);
    }
    if (due.size === 0) return;
    try {
      await trimLogs(db, [...due], options.retention);
      for (const deviceId of due) sinceTrim.delete(deviceId);
    } catch (error) {
      // Still due: the next batch of these devices tries again.
      if (!isDatabaseUnavailable(error)) options.onError(error);
    }
  };

  // Stores `batch`; returns the lines that could not be stored because the database is
  // unavailable (to be retried), in order.
  const persist = async (batch: IngestedLine[]): Promise<IngestedLine[]> => {
    try {
      await insertLogLines(db, origin, batch, options.announce);
      await trimDue(batch);
      return [];
    } catch (error) {
      if (isDatabaseUnavailable(error)) return batch;
      options.onError(error);
    }
    // One device at a time, so one bad device never loses the others' lines.
    const groups = byDevice(batch);
    for (const [index, own] of groups.entries()) {
      try {
        await insertLogLines(db, origin, own, options.announce);
        await trimDue(own);
      } catch (error) {
        if (isDatabaseUnavailable(error)) return groups.slice(index).flat();
        options.onError(error);
      }
    }
    return [];
  };

  const pause = (lane: Lane): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        lane.wake = undefined;
        resolve();
      }, retryDelay);
      retryDelay = Math.min(retryDelay * 2, options.retryMaxMs);
      lane.wake = () => {
        clearTimeout(timer);
        lane.wake = undefined;
        resolve();
      };
    });

  const storeNext = async (lane: Lane): Promise<void> => {
    for (;;) {
      const batch = lane.queue.take(options.maxBatchLines);
      if (batch.length === 0) return;
      const unstored = await persist(batch);
      if (unstored.length === 0) {
        stored();
        settle(lane, batch.length);
        return;
      }
      // Back at the front, in order; what the database did take counts as settled.
      lane.queue.unshift(unstored);
      settle(lane, batch.length - unstored.length);
      wentDown();
      drop(lane, lane.queue.length - laneLimit);
      if (closed) {
        const lost = lane.queue.length;
        lane.queue.drop(lost);
        log.warn(
          { lines: lost },
          'device logs: closing while the database is unavailable; these lines are not stored',
        );
        settle(lane, lost);
        return;
      }
      await pause(lane);
    }
  };

  const start = (lane: Lane): Promise<void> => {
    const current = storeNext(lane).finally(() => {
      lane.current = undefined;
      schedule(lane);
    });
    lane.current = current;
    return current;
  };

  function schedule(lane: Lane): void {
    if (closed || lane.current || lane.queue.length === 0) return;
    if (lane.queue.length >= options.maxBatchLines) {
      clearTimeout(lane.timer);
      lane.timer = undefined;
      void start(lane);
      return;
    }
    lane.timer ??= setTimeout(() => {
      lane.timer = undefined;
      if (!lane.current) void start(lane);
    }, options.flushMs);
  }

  return {
    write(lines) {
      const first = lines[0];
      if (closed || !first) return;
      const lane = laneOf(first.deviceId);
      lane.queue.push(lines);
      lane.queued += lines.length;
      drop(lane, lane.queue.length - laneLimit);
      schedule(lane);
    },
    settled(deviceId) {
      const lane = laneOf(deviceId);
      if (down || lane.settled >= lane.queued) return Promise.resolve();
      return new Promise((resolve) => lane.waiters.push({ upTo: lane.queued, resolve }));
    },
    async close() {
      closed = true;
      await Promise.all(
        lanes.map(async (lane) => {
          clearTimeout(lane.timer);
          lane.timer = undefined;
          lane.wake?.();
          while (lane.current || lane.queue.length > 0) await (lane.current ?? start(lane));
        }),
      );
    },
  };
};
