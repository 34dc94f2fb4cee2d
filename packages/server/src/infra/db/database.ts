import pg from 'pg';
import { asUnavailable, isDatabaseUnavailable } from './connection-errors.js';

export type SqlValue = string | number | boolean | null | Date | readonly unknown[] | object;

export type Queryable = {
  query<Row extends object = Record<string, unknown>>(
    sql: string,
    params?: readonly SqlValue[],
  ): Promise<{ rows: Row[]; rowCount: number }>;
};

export type Database = Queryable & {
  // Runs `work` in one transaction; a thrown error rolls everything back.
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
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
  close(): Promise<void>;
  url: string;
};

export type DatabaseOptions = {
  max?: number;
  // How long to wait for a connection (new or from the pool) before failing as unavailable.
  connectTimeoutMs?: number;
};

// node-postgres would turn int8 (counts) into strings; our counts always fit a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export const openDatabase = (url: string, options: DatabaseOptions = {}): Database => {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 20,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    // Notices a peer that vanished without closing (network cut) on idle connections too.
    keepAlive: true,
  });
  // An idle client losing its server (restart, failover) must not crash the process; the pool
  // drops it, and the next query opens a fresh connection.
  pool.on('error', () => undefined);

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

  const run = async <Row extends object>(
    client: pg.Pool | pg.PoolClient,
    sql: string,
    params: readonly SqlValue[],
  ): Promise<{ rows: Row[]; rowCount: number }> => {
    // pg's parameter type is a mutable any[]; our callers pass read-only arrays of values.
    const result = await client.query<Row>(sql, params as unknown[]);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  };

  const query = <Row extends object>(sql: string, params: readonly SqlValue[] = []) =>
    observe(() => run<Row>(pool, sql, params));

  return {
    url,
    query,
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await observe(() => pool.connect());
      // A checked-out client has no listener of the pool's: without this one, the server going
      // away between two statements would be an unhandled 'error' event (a crash).
      let broken: Error | undefined;
      const onError = (error: Error): void => {
        broken = error;
      };
      client.on('error', onError);
      const tx: Queryable = {
        query: <Row extends object>(sql: string, params: readonly SqlValue[] = []) =>
          observe(() => run<Row>(client, sql, params)),
      };
      try {
        await tx.query('BEGIN');
        const result = await work(tx);
        await tx.query('COMMIT');
        return result;
      } catch (error) {
        if (isDatabaseUnavailable(error)) broken ??= error instanceof Error ? error : undefined;
        if (!broken) {
          await client.query('ROLLBACK').catch((rollbackError: Error) => {
            broken = rollbackError;
          });
        }
        throw error;
      } finally {
        client.off('error', onError);
        // A broken connection is destroyed rather than handed to the next caller.
        client.release(broken);
      }
    },
    async connect() {
      const client = await observe(() => pool.connect());
      // The owner adds its own listeners; this one only keeps a forgotten one from crashing us.
      client.on('error', () => undefined);
      return client;
    },
    isAvailable: () => available,
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
    close: () => pool.end(),
  };
};
