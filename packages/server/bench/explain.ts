import { performance } from 'node:perf_hooks';
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
const readOnly = (sql: string): boolean => /^\s*SELECT\b/i.test(sql);

// A read run as the server runs /v7 reads (a named prepared statement, one connection) ten times:
// each run's time, and whether PostgreSQL planned it each time (custom plans) or kept one
// (generic), as pg_prepared_statements counts them. A read that is planned on every run pays its
// planning time per request, which EXPLAIN ANALYZE's "Planning Time" shows.
// (Each gets a name of its own: node-postgres remembers the names its connection prepared.)
let prepared = 0;
const preparedRuns = async (client: pg.PoolClient, statement: Statement): Promise<string> => {
  prepared += 1;
  const name = `bench_explain_${prepared}`;
  const times: number[] = [];
  for (let run = 0; run < 10; run += 1) {
    const began = performance.now();
    await client.query({ name, text: statement.sql, values: statement.params as unknown[] });
    times.push(performance.now() - began);
  }
  const { rows } = await client.query<{ generic: string; custom: string }>(
    `SELECT "generic_plans" AS "generic", "custom_plans" AS "custom"
       FROM pg_prepared_statements WHERE "name" = $1`,
    [name],
  );
  return (
    `-- prepared, 10 runs: ${times.map((ms) => ms.toFixed(1)).join(', ')} ms; ` +
    `generic plans ${rows[0]?.generic ?? '?'}, custom plans ${rows[0]?.custom ?? '?'}`
  );
};

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
          ...(readOnly(statement.sql) ? [await preparedRuns(client, statement)] : []),
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
