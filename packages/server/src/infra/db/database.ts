import pg from 'pg';

export type SqlValue = string | number | boolean | null | Date | readonly unknown[] | object;

export type Queryable = {
  query<Row extends object = Record<string, unknown>>(
    sql: string,
    params?: readonly SqlValue[],
  ): Promise<{ rows: Row[]; rowCount: number }>;
};

// A notice (RAISE NOTICE) the server sent to one of the pool's connections.
export type DatabaseNotice = { message: string | undefined; detail: string | undefined };

export type Database = Queryable & {
  // Runs `work` in one transaction; a thrown error rolls everything back.
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  // A dedicated connection for LISTEN and other session-bound work.
  connect(): Promise<pg.PoolClient>;
  // Notices of every pooled connection, delivered before the statement raising them returns
  // (the auth cache hears of this process's own changes this way; see actor-cache-feed.ts).
  onNotice(listener: (notice: DatabaseNotice) => void): () => void;
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

export const openDatabase = (url: string, options: { max?: number } = {}): Database => {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 20 });
  // An idle client losing its server (restart, failover) must not crash the process.
  pool.on('error', () => undefined);
  const noticeListeners = new Set<(notice: DatabaseNotice) => void>();
  pool.on('connect', (client) => {
    client.on('notice', ({ message, detail }) => {
      for (const listener of noticeListeners) listener({ message, detail });
    });
  });
  const { query } = wrap(pool);
  return {
    url,
    query,
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    connect: () => pool.connect(),
    onNotice(listener) {
      noticeListeners.add(listener);
      return () => {
        noticeListeners.delete(listener);
      };
    },
    close: () => pool.end(),
  };
};
