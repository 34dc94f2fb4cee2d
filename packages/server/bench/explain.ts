import type pg from 'pg';
import type { Database, Queryable, SqlValue } from '../src/infra/db/database.js';

// Diagnostics for BENCH_EXPLAIN=1: records the statements the engine sends while one scenario
// runs once, then prints EXPLAIN ANALYZE of each (writes inside a rolled-back transaction).

export type Statement = { sql: string; params: readonly SqlValue[] };

export type StatementRecorder = {
  database: Database;
  record<T>(work: () => Promise<T>): Promise<{ result: T; statements: Statement[] }>;
};

export const createStatementRecorder = (db: Database): StatementRecorder => {
  let sink: Statement[] | undefined;
  const wrap = (target: Queryable): Queryable => ({
    query<Row extends object = Record<string, unknown>>(
      sql: string,
      params: readonly SqlValue[] = [],
    ) {
      sink?.push({ sql, params });
      return target.query<Row>(sql, params);
    },
  });
  return {
    database: {
      ...db,
      query: wrap(db).query,
      transaction: (work) => db.transaction((tx) => work(wrap(tx))),
    },
    async record(work) {
      const statements: Statement[] = [];
      sink = statements;
      try {
        return { result: await work(), statements };
      } finally {
        sink = undefined;
      }
    },
  };
};

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
          `-- ${statement.sql.replace(/\s+/g, ' ').slice(0, 2000)}`,
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
