import pg from 'pg';
import {
  type CancelState,
  QueryCancelledError,
  type QueryLimits,
  runWithLimits,
} from './cancellable-query.js';

export type SqlValue = string | number | boolean | null | Date | readonly unknown[] | object;

export type Queryable = {
  query<Row extends object = Record<string, unknown>>(
    sql: string,
    params?: readonly SqlValue[],
    // Timeout and cancellation of this statement (cancellable-query.ts).
    limits?: QueryLimits,
  ): Promise<{ rows: Row[]; rowCount: number }>;
};

export type Database = Queryable & {
  // Runs `work` in one transaction; a thrown error rolls everything back. `limits` bound each of
  // its statements; a cancelled one rolls the whole transaction back.
  transaction<T>(work: (tx: Queryable) => Promise<T>, limits?: QueryLimits): Promise<T>;
  // A dedicated connection for LISTEN and other session-bound work.
  connect(): Promise<pg.PoolClient>;
  close(): Promise<void>;
  url: string;
};

// node-postgres would turn int8 (counts) into strings; our counts always fit a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

const wrap = (client: pg.Pool | pg.PoolClient): Queryable => ({
  async query<Row extends object>(sql: string, params: readonly SqlValue[] = []) {
    const result = await client.query<Row>(sql, params as unknown[]);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  },
});

// Statements on one connection, each under the given limits unless it brings its own.
const wrapLimited = (
  client: pg.PoolClient,
  url: string,
  defaults: QueryLimits,
  state: CancelState,
): Queryable => ({
  async query<Row extends object>(
    sql: string,
    params: readonly SqlValue[] = [],
    limits: QueryLimits = defaults,
  ) {
    const statement = { sql, params: params as unknown[] };
    const result = await runWithLimits<Row>(client, url, statement, limits, state);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  },
});

export const openDatabase = (url: string, options: { max?: number } = {}): Database => {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 20 });
  // An idle client losing its server (restart, failover) must not crash the process.
  pool.on('error', () => undefined);
  const plain = wrap(pool);
  return {
    url,
    async query<Row extends object>(
      sql: string,
      params: readonly SqlValue[] = [],
      limits?: QueryLimits,
    ) {
      if (!limits) return plain.query<Row>(sql, params);
      // A statement that may be cancelled needs its own connection (to know its backend).
      const client = await pool.connect();
      const state: CancelState = { reason: undefined };
      try {
        return await wrapLimited(client, url, limits, state).query<Row>(sql, params);
      } finally {
        client.release(state.reason !== undefined);
      }
    },
    async transaction<T>(work: (tx: Queryable) => Promise<T>, limits?: QueryLimits): Promise<T> {
      const client = await pool.connect();
      const state: CancelState = { reason: undefined };
      try {
        await client.query('BEGIN');
        const result = await work(limits ? wrapLimited(client, url, limits, state) : wrap(client));
        // Cancelled just as its statement ended: the client is gone or out of time, so nothing
        // is committed.
        if (state.reason) throw new QueryCancelledError(state.reason, limits?.timeoutMs);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release(state.reason !== undefined);
      }
    },
    connect: () => pool.connect(),
    close: () => pool.end(),
  };
};
