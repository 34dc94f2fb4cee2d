import type pg from 'pg';
import type { QueryLimits } from '../src/infra/db/cancellable-query.js';
import type { Database, Queryable, SqlValue } from '../src/infra/db/database.js';

// Diagnostics for BENCH_EXPLAIN=1: records the statements each side sends while a scenario runs
// once, then prints EXPLAIN ANALYZE of each (inside a rolled-back transaction, so writes vanish).

export type Statement = { sql: string; params: readonly SqlValue[] };

export type StatementRecorder = {
  queryable(target: Queryable): Queryable;
  database(target: Database): Database;
  record(work: () => Promise<unknown>): Promise<Statement[]>;
};

export const createStatementRecorder = (): StatementRecorder => {
  let sink: Statement[] | undefined;
  const queryable = (target: Queryable): Queryable => ({
    query<Row extends object = Record<string, unknown>>(
      sql: string,
      params: readonly SqlValue[] = [],
      limits?: QueryLimits,
    ) {
      sink?.push({ sql, params });
      return target.query<Row>(sql, params, limits);
    },
  });
  return {
    queryable,
    database: (target) => ({
      ...target,
      query: queryable(target).query,
      transaction: (work, limits) => target.transaction((tx) => work(queryable(tx)), limits),
    }),
    async record(work) {
      const statements: Statement[] = [];
      sink = statements;
      try {
        await work();
        return statements;
      } finally {
        sink = undefined;
      }
    },
  };
};

// The baseline's pg Pool behind the same small interface the server's database has.
export const poolQueryable = (pool: pg.Pool): Queryable => ({
  async query<Row extends object = Record<string, unknown>>(
    sql: string,
    params: readonly SqlValue[] = [],
  ) {
    const result = await pool.query<Row>(sql, params as unknown[]);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  },
});

const explainable = (sql: string): boolean => /^\s*(SELECT|WITH|UPDATE|INSERT|DELETE)\b/i.test(sql);

export const explainStatements = async (
  pool: pg.Pool,
  statements: readonly Statement[],
): Promise<string> => {
  const client = await pool.connect();
  const out: string[] = [];
  try {
    for (const statement of statements) {
      if (!explainable(statement.sql)) continue;
      await client.query('BEGIN');
      try {
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement.sql}`,
          statement.params as unknown[],
        );
        out.push(
          `-- ${statement.sql.replace(/\s+/g, ' ').trim().slice(0, 3000)}`,
          `-- params: ${JSON.stringify(statement.params).slice(0, 300)}`,
          ...rows.map((row) => row['QUERY PLAN']),
          '',
        );
      } finally {
        await client.query('ROLLBACK');
      }
    }
  } finally {
    client.release();
  }
  return out.join('\n');
};
