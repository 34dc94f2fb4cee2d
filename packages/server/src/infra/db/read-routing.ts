import type { ReadReplicaConfig } from '../config/read-replica.js';
import { isDatabaseUnavailable } from './connection-errors.js';
import {
  type Database,
  openDatabase,
  type Queryable,
  type QueryOptions,
  type SqlValue,
} from './database.js';

// Heavy console reads on a read replica (FLOTILLA_DATABASE_READ_URL), with a staleness bound.
//
// Every check interval the primary's WAL position is sampled (at a time t, it covers every
// commit acknowledged before t), then the replica's replay position is read: the newest sample
// it has replayed tells that the replica holds everything committed before that sample's time
// (`caughtUpAt`). A read goes to the replica only while caughtUpAt is at most maxLagMs old, the
// last check reached the replica, and the reader has written nothing since caughtUpAt (a person
// reads their own writes). Otherwise, and whenever in doubt, it goes to the primary. No clock is
// shared with PostgreSQL: both times are this process's.

export type ReadRoutingOptions = {
  maxLagMs: number;
  checkIntervalMs: number;
  // Milliseconds, monotonic (injectable for tests).
  now?: () => number;
  onCheckFailed?: (error: unknown) => void;
  onCheckSucceeded?: () => void;
};

export type ReadRoutingStatus = {
  // The last check reached the replica (and it was a standby).
  reachable: boolean;
  // How stale the replica may be now, in ms (undefined: not known to have caught up yet).
  stalenessMs: number | undefined;
};

export type ReadRouting = {
  // Where a read for `reader` (undefined: not a signed-in person) goes now.
  readerFor(reader: string | undefined): Queryable;
  // `reader` has just had a write answered: their reads stay on the primary until the replica
  // has caught up past it.
  wrote(reader: string): void;
  // One comparison of the positions now (the timer runs them every check interval).
  check(): Promise<void>;
  status(): ReadRoutingStatus;
  start(): void;
  stop(): void;
};

type Sample = { at: number; lsn: bigint };

// '16/B374D848' → its 64-bit position.
export const lsnValue = (lsn: string): bigint => {
  const [high, low] = lsn.split('/');
  if (high === undefined || low === undefined) throw new Error(`Not a WAL position: ${lsn}`);
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
};

export const createReadRouting = (
  primary: Database,
  replica: Queryable,
  options: ReadRoutingOptions,
): ReadRouting => {
  const now = options.now ?? (() => performance.now());
  let samples: Sample[] = [];
  let caughtUpAt: number | undefined;
  let reachable = false;
  const lastWrites = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const fresh = (): boolean =>
    reachable && caughtUpAt !== undefined && now() - caughtUpAt <= options.maxLagMs;

  const compare = async (): Promise<void> => {
    const at = now();
    const { rows } = await primary.query<{ lsn: string }>(
      'SELECT pg_current_wal_lsn()::text AS "lsn"',
    );
    const sampled = rows[0]?.lsn;
    if (sampled !== undefined) samples.push({ at, lsn: lsnValue(sampled) });
    try {
      // NULL on a server that never was a standby; static once it was promoted, so the primary's
      // position moves past it: either way it is not used.
      const replayed = await replica.query<{ lsn: string | null }>(
        'SELECT pg_last_wal_replay_lsn()::text AS "lsn"',
      );
      const lsn = replayed.rows[0]?.lsn ?? null;
      reachable = lsn !== null;
      if (lsn !== null) {
        const position = lsnValue(lsn);
        const covered = samples.filter((sample) => sample.lsn <= position).pop();
        if (covered) caughtUpAt = Math.max(caughtUpAt ?? covered.at, covered.at);
      }
    } catch (error) {
      reachable = false;
      throw error;
    } finally {
      // Samples already covered, or older than the bound, can never make the replica fresher.
      const horizon = now() - options.maxLagMs;
      samples = samples.filter(
        (sample) => sample.at > (caughtUpAt ?? -Infinity) && sample.at >= horizon,
      );
      for (const [reader, at] of lastWrites) if (at < horizon) lastWrites.delete(reader);
    }
  };

  const check = (): Promise<void> => {
    running ??= compare()
      .then(() => options.onCheckSucceeded?.())
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  // The replica, and the primary when the replica turns out to be unreachable mid-interval (the
  // read then goes to the primary rather than failing; the next check decides again).
  const replicaOrPrimary: Queryable = {
    async query<Row extends object = Record<string, unknown>>(
      sql: string,
      params?: readonly SqlValue[],
      queryOptions?: QueryOptions,
    ) {
      try {
        return await replica.query<Row>(sql, params, queryOptions);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        reachable = false;
        return primary.query<Row>(sql, params, queryOptions);
      }
    },
  };

  return {
    readerFor(reader) {
      if (reader === undefined || !fresh()) return primary;
      const wroteAt = lastWrites.get(reader);
      if (wroteAt !== undefined && (caughtUpAt ?? 0) <= wroteAt) return primary;
      return replicaOrPrimary;
    },
    wrote(reader) {
      lastWrites.set(reader, now());
    },
    check,
    status: () => ({
      reachable,
      stalenessMs: caughtUpAt === undefined ? undefined : now() - caughtUpAt,
    }),
    start() {
      if (timer) return;
      timer = setInterval(() => {
        check().catch((error: unknown) => options.onCheckFailed?.(error));
      }, options.checkIntervalMs);
      timer.unref();
      check().catch((error: unknown) => options.onCheckFailed?.(error));
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
};

// The routing of a server process: the replica's own pool (named, so operators see its sessions
// in pg_stat_activity), checked every interval; undefined without FLOTILLA_DATABASE_READ_URL.
export const openReadRouting = (
  primary: Database,
  config: ReadReplicaConfig,
  warn: (message: string) => void,
): { routing: ReadRouting; close(): Promise<void> } | undefined => {
  if (config.url === undefined) return undefined;
  const url = new URL(config.url);
  if (!url.searchParams.has('application_name')) {
    url.searchParams.set('application_name', 'flotilla-reads');
  }
  const replica = openDatabase(url.toString(), { max: 10, connectTimeoutMs: 2_000 });
  let failing = false;
  const routing = createReadRouting(primary, replica, {
    maxLagMs: config.maxLagMs,
    checkIntervalMs: config.checkIntervalMs,
    onCheckFailed(error) {
      if (failing) return;
      failing = true;
      const why = error instanceof Error ? error.message : String(error);
      warn(`The read replica cannot be checked (${why}); reads go to the primary`);
    },
    onCheckSucceeded() {
      failing = false;
    },
  });
  routing.start();
  return {
    routing,
    async close() {
      routing.stop();
      await replica.close();
    },
  };
};
