import pg from 'pg';
import {
  type CancelState,
  QueryCancelledError,
  type QueryLimits,
  runWithLimits,
} from './cancellable-query.js';
import { asUnavailable, isDatabaseUnavailable } from './connection-errors.js';
import { createNotificationRecorder, type NotificationSink } from './recorded-notifications.js';

export type SqlValue = string | number | boolean | null | Date | readonly unknown[] | object;

// Timeout and cancellation of a statement (cancellable-query.ts), and whether it is prepared.
export type QueryOptions = QueryLimits & {
  // Run as this named prepared statement: parsed and planned (then, when PostgreSQL finds a
  // generic plan as good, never again) once per connection. The name must always come with the
  // same SQL (a hash of it does). Only for statements run with limits (their own connection);
  // a connection holds at most maxPreparedPerConnection of them.
  prepareAs?: string;
  // Plan it generically from its first run (PostgreSQL's plan_cache_mode), not once for each of
  // its first five runs on a connection: for prepared statements whose best plan does not depend
  // on their values (counts under the caller's permissions).
  genericPlan?: boolean;
};

export type Queryable = {
  query<Row extends object = Record<string, unknown>>(
    sql: string,
    params?: readonly SqlValue[],
    options?: QueryOptions,
  ): Promise<{ rows: Row[]; rowCount: number }>;
};

// Prepared statements one connection keeps (each holds PostgreSQL memory, up to a few hundred kB
// for a large /v7 read): a connection that would need another is replaced by a fresh one after
// the statement, which then runs unprepared.
export const maxPreparedPerConnection = 100;

// A notice (RAISE NOTICE) the server sent to one of the pool's connections.
export type DatabaseNotice = { message: string | undefined; detail: string | undefined };

export type Database = Queryable & {
  // Runs `work` in one transaction; a thrown error rolls everything back. `limits` bound each of
  // its statements; a cancelled one rolls the whole transaction back.
  transaction<T>(work: (tx: Queryable) => Promise<T>, limits?: QueryLimits): Promise<T>;
  // A dedicated connection for LISTEN and other session-bound work. Its owner must listen for
  // 'error' and 'end' (the server may go away) and release it with the error.
  connect(): Promise<pg.PoolClient>;
  // Whether PostgreSQL answered the last round trip (false from a connection failure until the
  // next success).
  isAvailable(): boolean;
  // Called on every change of isAvailable(); returns the unsubscribe function.
  onAvailabilityChange(listener: (available: boolean, cause?: unknown) => void): () => void;
  // `SELECT 1` that gives up after `timeoutMs` (readiness probe).
  ping(timeoutMs: number): Promise<void>;
  // Notices of every pooled connection, delivered before the statement raising them returns
  // (the auth cache hears of this process's own changes this way; see actor-cache-feed.ts).
  onNotice(listener: (notice: DatabaseNotice) => void): () => void;
  // While a sink is added, the triggers' notifications are recorded instead of NOTIFYed
  // (migrations/0093-bus-notifications.sql) and handed to it after their commit, for a bus that
  // cannot see commits (NATS); removing the last sink returns to NOTIFY.
  recordNotifications(sink: NotificationSink): () => void;
  // The pool's connections now: open, idle, and requests waiting for one (for operators' metrics).
  poolStats(): { total: number; idle: number; waiting: number };
  // A few connections of their own, for work that must not queue behind the pool's (a node's
  // heartbeat on a busy machine). Same settings, notices and recording as the pool; a lost
  // connection is replaced at the next statement. Closed by its owner, or with the database.
  reserve(max: number): ReservedConnections;
  close(): Promise<void>;
  url: string;
};

export type ReservedConnections = Queryable & { close(): Promise<void> };

export type DatabaseOptions = {
  max?: number;
  // How long to wait for a connection (new or from the pool) before failing as unavailable.
  connectTimeoutMs?: number;
};

// node-postgres would turn int8 (counts) into strings; our counts always fit a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

// The connection string and session settings of every connection. node-postgres lets a URL's
// `options` replace the configured ones, so they are moved out of the URL and joined with ours.
// JIT off: Flotilla's statements are short, and PostgreSQL's JIT (on by default where it is
// built in, as in Debian's packages) compiles the larger ones, such as the fleet list's counts,
// for hundreds of milliseconds each time, far more than they take to run.
export const connectionSettings = (url: string): { connectionString: string; options: string } => {
  const ours = '-c jit=off';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL (a bare connection string): nothing of its own to keep.
    return { connectionString: url, options: ours };
  }
  const given = parsed.searchParams.get('options') ?? '';
  parsed.searchParams.delete('options');
  return { connectionString: parsed.toString(), options: `${given} ${ours}`.trim() };
};

// How long an idle pooled connection stays open. Its prepared statements and their plans go with
// it: node-postgres's 10 s closed the connections of a console screen refreshing every 10 to 30 s,
// and every refresh then planned its /v7 reads again (tens of milliseconds of PostgreSQL CPU for
// the fleet list's counts). An idle connection costs PostgreSQL its memory, a few MB at most.
export const poolIdleTimeoutMs = 120_000;

export const openDatabase = (url: string, options: DatabaseOptions = {}): Database => {
  const newPool = (max: number): pg.Pool => {
    const created = new pg.Pool({
      ...connectionSettings(url),
      max,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      idleTimeoutMillis: poolIdleTimeoutMs,
      // Notices a peer that vanished without closing (network cut) on idle connections too.
      keepAlive: true,
    });
    // An idle client losing its server (restart, failover) must not crash the process; the pool
    // drops it, and the next query opens a fresh connection.
    created.on('error', () => undefined);
    created.on('connect', watchClient);
    created.on('remove', forgetPlanMode);
    return created;
  };

  let available = true;
  const listeners = new Set<(available: boolean, cause?: unknown) => void>();
  const setAvailable = (next: boolean, cause?: unknown): void => {
    if (next === available) return;
    available = next;
    for (const listener of [...listeners]) listener(next, cause);
  };
  // Every round trip tells whether the server is there; connection failures become
  // DatabaseUnavailableError, other errors (bad SQL, constraints) pass unchanged.
  const observe = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      const result = await work();
      setAvailable(true);
      return result;
    } catch (error) {
      if (isDatabaseUnavailable(error)) setAvailable(false, error);
      else setAvailable(true);
      throw asUnavailable(error);
    }
  };

  // The sinks catch their own failures (a bus that cannot publish).
  const recorder = createNotificationRecorder(() => undefined);

  const run = async <Row extends object>(
    client: pg.Pool | pg.PoolClient,
    sql: string,
    params: readonly SqlValue[],
  ): Promise<{ rows: Row[]; rowCount: number }> => {
    // pg's parameter type is a mutable any[]; our callers pass read-only arrays of values.
    const result = await client.query<Row>(sql, params as unknown[]);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  };

  // The prepared statements of each connection (pg prepares a named statement on first use).
  const prepared = new WeakMap<pg.ClientBase, Set<string>>();
  const retiring = new WeakSet<pg.ClientBase>();

  // Connections whose session plans generically (QueryOptions.genericPlan). Any other statement
  // runs on a connection in PostgreSQL's default mode, since the setting would give its
  // unprepared statements a generic plan too; while no connection is generic, plain queries take
  // any pooled connection as before.
  const generic = new WeakSet<pg.ClientBase>();
  let genericCount = 0;
  const forgetPlanMode = (client: pg.ClientBase): void => {
    if (generic.delete(client)) genericCount--;
  };
  const setPlanMode = async (client: pg.ClientBase, wanted: boolean): Promise<void> => {
    if (generic.has(client) === wanted) return;
    await client.query(
      wanted ? 'SET plan_cache_mode = force_generic_plan' : 'RESET plan_cache_mode',
    );
    if (wanted) {
      generic.add(client);
      genericCount++;
    } else {
      generic.delete(client);
      genericCount--;
    }
  };
  // The name to run `name` as on `client`, or undefined when the connection is full (it is then
  // retired on release).
  const preparedName = (client: pg.ClientBase, name: string | undefined): string | undefined => {
    if (name === undefined) return undefined;
    let names = prepared.get(client);
    if (!names) {
      names = new Set();
      prepared.set(client, names);
    }
    if (names.has(name)) return name;
    if (names.size >= maxPreparedPerConnection) {
      retiring.add(client);
      return undefined;
    }
    names.add(name);
    return name;
  };

  // One statement on a checked-out connection, under `options` when given.
  const runOn = async <Row extends object>(
    client: pg.PoolClient,
    sql: string,
    params: readonly SqlValue[],
    options: QueryOptions | undefined,
    state: CancelState,
  ): Promise<{ rows: Row[]; rowCount: number }> => {
    if (!options) return run<Row>(client, sql, params);
    // pg's parameter type is a mutable any[]; our callers pass read-only arrays of values.
    const statement = {
      sql,
      params: params as unknown[],
      name: preparedName(client, options.prepareAs),
    };
    const result = await runWithLimits<Row>(client, url, statement, options, state);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  };

  // A connection that was sent a cancel may receive it during its next statement, and a broken
  // one cannot be reused: both are destroyed rather than handed to the next caller, and so is
  // one holding as many prepared statements as it may.
  const releaseArgument = (
    client: pg.ClientBase,
    broken: Error | undefined,
    state: CancelState,
  ): Error | boolean => broken ?? (state.reason !== undefined || retiring.has(client));

  // Runs `work` on a checked-out connection, with an 'error' listener: without it, the server
  // going away between two statements would be an unhandled 'error' event (a crash).
  const withClient = async <T>(
    from: pg.Pool,
    work: (
      client: pg.PoolClient,
      state: CancelState,
      markBroken: (error: Error) => void,
    ) => Promise<T>,
    genericPlan = false,
  ): Promise<T> => {
    const client = await observe(() => from.connect());
    const state: CancelState = { reason: undefined };
    let broken: Error | undefined;
    let committed = false;
    // Nothing to collect unless recording (the default adds no work to a transaction).
    const collects = recorder.recording();
    const onError = (error: Error): void => {
      broken = error;
    };
    client.on('error', onError);
    try {
      await observe(() => setPlanMode(client, genericPlan));
      const setting = recorder.settingFor(client);
      if (setting !== undefined) await observe(() => setting);
      if (collects) recorder.begin(client);
      const result = await work(client, state, (error) => {
        broken ??= error;
      });
      committed = true;
      return result;
    } catch (error) {
      if (isDatabaseUnavailable(error)) broken ??= error instanceof Error ? error : undefined;
      throw error;
    } finally {
      if (collects) recorder.finish(client, committed);
      client.off('error', onError);
      client.release(releaseArgument(client, broken, state));
    }
  };

  const queryOn =
    (from: pg.Pool): Queryable['query'] =>
    <Row extends object>(sql: string, params: readonly SqlValue[] = [], options?: QueryOptions) =>
      // A statement that may be cancelled needs its own connection (to know its backend), and so
      // does one whose recorded notifications must be told apart from other statements', and
      // every statement while some connection plans generically (it must get one that does not).
      options || recorder.recording() || genericCount > 0
        ? withClient(
            from,
            (client, state) => observe(() => runOn<Row>(client, sql, params, options, state)),
            options?.genericPlan === true && options.prepareAs !== undefined,
          )
        : observe(() => run<Row>(from, sql, params));

  const noticeListeners = new Set<(notice: DatabaseNotice) => void>();
  const watchClient = (client: pg.PoolClient): void => {
    // For the connection's whole life: pg-pool takes its own listener off while a client is
    // checked out, and a session terminated by PostgreSQL at an unlucky moment (seen once in
    // database-loss.int.test.ts under CI) was an unhandled 'error' event, a crash. Whoever uses
    // the client still hears the error through their own listener or their query.
    client.on('error', () => undefined);
    client.on('notice', (notice) => {
      if (recorder.heard(client, notice)) return;
      const { message, detail } = notice;
      for (const listener of noticeListeners) listener({ message, detail });
    });
  };
  const pool = newPool(options.max ?? 20);
  const query = queryOn(pool);
  const reserved = new Set<pg.Pool>();

  return {
    url,
    query,
    transaction<T>(work: (tx: Queryable) => Promise<T>, limits?: QueryLimits): Promise<T> {
      return withClient(pool, async (client, state, markBroken) => {
        const tx: Queryable = {
          query: <Row extends object>(
            sql: string,
            params: readonly SqlValue[] = [],
            own: QueryOptions | undefined = limits,
          ) => observe(() => runOn<Row>(client, sql, params, own, state)),
        };
        await tx.query('BEGIN', [], undefined);
        try {
          const result = await work(tx);
          // Cancelled just as its statement ended: the client is gone or out of time, so nothing
          // is committed.
          if (state.reason) throw new QueryCancelledError(state.reason, limits?.timeoutMs);
          await tx.query('COMMIT', [], undefined);
          return result;
        } catch (error) {
          // A connection that is gone rolls back by itself; a live one is told to.
          if (!isDatabaseUnavailable(error)) {
            await client.query('ROLLBACK').catch(markBroken);
          }
          throw error;
        }
      });
    },
    async connect() {
      const client = await observe(() => pool.connect());
      // The owner adds its own listeners; this one only keeps a forgotten one from crashing us.
      client.on('error', () => undefined);
      try {
        await observe(() => setPlanMode(client, false));
      } catch (error) {
        client.release(error instanceof Error ? error : true);
        throw error;
      }
      return client;
    },
    isAvailable: () => available,
    recordNotifications: (sink) => recorder.add(sink),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    reserve(max) {
      const own = newPool(max);
      reserved.add(own);
      let ended: Promise<void> | undefined;
      return {
        query: queryOn(own),
        close: () => {
          reserved.delete(own);
          return (ended ??= own.end());
        },
      };
    },
    onAvailabilityChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async ping(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`timeout exceeded when trying to connect (${timeoutMs} ms)`)),
          timeoutMs,
        );
      });
      try {
        await Promise.race([query('SELECT 1'), timeout]);
      } catch (error) {
        throw asUnavailable(error);
      } finally {
        clearTimeout(timer);
      }
    },
    onNotice(listener) {
      noticeListeners.add(listener);
      return () => {
        noticeListeners.delete(listener);
      };
    },
    close: async () => {
      await Promise.all([pool, ...reserved].map((each) => each.end()));
      reserved.clear();
    },
  };
};
