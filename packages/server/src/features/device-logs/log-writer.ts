import type { Database } from '../../infra/db/database.js';
import type { StoredLine } from './log-line.js';
import { insertLogLines, type PendingLine } from './log-store.js';

// Batches the lines of every device streaming to this process into one insert per flush (every
// `flushMs`, or sooner once `maxBatchLines` wait), so ingest costs a few transactions per second
// however many devices stream. Flushes run one at a time, in order.

export type LogWriterOptions = {
  db: Database;
  retention: number;
  flushMs: number;
  maxBatchLines: number;
  now: () => Date;
  // Called after each flush with the devices that got lines (the in-process live fan-out).
  onWritten: (deviceIds: readonly number[]) => void;
  onError: (error: unknown) => void;
};

export type LogWriter = {
  // Resolves once the lines are stored (or given up on: errors go to onError, never to callers).
  write(deviceId: number, lines: readonly StoredLine[]): Promise<void>;
  // Flushes what is queued and refuses further writes.
  close(): Promise<void>;
};

export const createLogWriter = (options: LogWriterOptions): LogWriter => {
  let queue: PendingLine[] = [];
  let waiters: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;

  // Lines of one device are retried alone when a batch fails, so one bad device (deleted in the
  // middle of the batch, say) never loses the others' lines.
  const persist = async (batch: PendingLine[]): Promise<readonly number[]> => {
    try {
      return await insertLogLines(options.db, batch, options.retention);
    } catch (error) {
      options.onError(error);
      const written: number[] = [];
      for (const deviceId of new Set(batch.map((pending) => pending.deviceId))) {
        const own = batch.filter((pending) => pending.deviceId === deviceId);
        try {
          written.push(...(await insertLogLines(options.db, own, options.retention)));
        } catch (deviceError) {
          options.onError(deviceError);
        }
      }
      return written;
    }
  };

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    const done = waiters;
    queue = [];
    waiters = [];
    if (batch.length === 0) return chain;
    chain = chain.then(async () => {
      const written = await persist(batch);
      if (written.length > 0) options.onWritten(written);
      for (const resolve of done) resolve();
    });
    return chain;
  };

  return {
    write(deviceId, lines) {
      if (closed || lines.length === 0) return Promise.resolve();
      const createdAt = options.now().getTime();
      for (const line of lines) queue.push({ deviceId, createdAt, line });
      const stored = new Promise<void>((resolve) => waiters.push(resolve));
      if (queue.length >= options.maxBatchLines) void flush();
      else timer ??= setTimeout(() => void flush(), options.flushMs);
      return stored;
    },
    async close() {
      closed = true;
      await flush();
    },
  };
};
