import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test-support/test-database.js';
import { QueryCancelledError } from './cancellable-query.js';
import { type Database, maxPreparedPerConnection, openDatabase } from './database.js';

// Named (prepared) statements of QueryOptions.prepareAs, on a pool of one connection so that
// every statement, and pg_prepared_statements, is on the same session.

describe('prepared statements', () => {
  let owner: Database;
  let db: Database;
  const limits = { timeoutMs: 10_000 };

  const preparedNames = async (): Promise<string[]> =>
    (
      await db.query<{ name: string }>(
        'SELECT "name" FROM pg_prepared_statements ORDER BY "name"',
        [],
        limits,
      )
    ).rows.map((row) => row.name);

  const backend = async (): Promise<number> =>
    (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS "pid"', [], limits)).rows[0]
      ?.pid ?? -1;

  beforeAll(async () => {
    owner = await createTestDatabase();
    db = openDatabase(owner.url, { max: 1 });
  });

  afterAll(async () => {
    await db.close();
    await owner.close();
  });

  it('prepares a named statement once per connection and runs it with each call’s values', async () => {
    const run = async (value: number): Promise<number | undefined> =>
      (
        await db.query<{ n: number }>('SELECT $1::integer + 1 AS "n"', [value], {
          ...limits,
          prepareAs: 'plus_one',
        })
      ).rows[0]?.n;
    expect(await run(1)).toBe(2);
    expect(await run(41)).toBe(42);
    expect(await preparedNames()).toEqual(['plus_one']);
  });

  it('replaces a connection holding as many prepared statements as it may', async () => {
    const pid = await backend();
    const prepared = new Set(await preparedNames());
    for (let index = 0; prepared.size + index < maxPreparedPerConnection; index++) {
      await db.query(`SELECT ${index} AS "n"`, [], { ...limits, prepareAs: `fill_${index}` });
    }
    expect(await preparedNames()).toHaveLength(maxPreparedPerConnection);
    expect(await backend()).toBe(pid);
    // One more: answered (unprepared), and the full connection is closed after it.
    const { rows } = await db.query<{ n: number }>('SELECT 7 AS "n"', [], {
      ...limits,
      prepareAs: 'one_too_many',
    });
    expect(rows).toEqual([{ n: 7 }]);
    expect(await backend()).not.toBe(pid);
    expect(await preparedNames()).toEqual([]);
  });

  it('cancels a prepared statement over its time limit, and runs it again afterwards', async () => {
    const sleep = (seconds: number, timeoutMs: number) =>
      db.query('SELECT pg_sleep($1::double precision)', [seconds], {
        timeoutMs,
        prepareAs: 'sleeper',
      });
    const pid = await backend();
    await expect(sleep(30, 200)).rejects.toBeInstanceOf(QueryCancelledError);
    // The cancelled connection is not reused; the statement is prepared again on the next one.
    expect(await backend()).not.toBe(pid);
    await expect(sleep(0, 10_000)).resolves.toMatchObject({ rowCount: 1 });
    expect(await preparedNames()).toEqual(['sleeper']);
  });

  it('plans a statement asking for it generically from its first run, and nothing else', async () => {
    type Plans = { generic_plans: number; custom_plans: number };
    const plans = async (name: string): Promise<Plans | undefined> =>
      (
        await db.query<Plans>(
          'SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE "name" = $1',
          [name],
          limits,
        )
      ).rows[0];
    const mode = async (options?: typeof limits): Promise<string | undefined> =>
      (
        await db.query<{ mode: string }>(
          'SELECT current_setting(\'plan_cache_mode\') AS "mode"',
          [],
          options,
        )
      ).rows[0]?.mode;
    const run = (name: string, genericPlan: boolean, value: number) =>
      db.query('SELECT count(*) AS "n" FROM pg_class WHERE oid > $1::integer', [value], {
        ...limits,
        prepareAs: name,
        genericPlan,
      });
    await run('counted_generic', true, 1);
    await run('counted_generic', true, 2);
    expect(await plans('counted_generic')).toEqual({ generic_plans: 2, custom_plans: 0 });
    // The same connection then serves other statements in PostgreSQL's default mode: pooled
    // plain queries, statements with limits, and prepared ones not asking for it.
    expect(await mode()).toBe('auto');
    await run('counted_generic', true, 3);
    expect(await mode(limits)).toBe('auto');
    await run('counted_custom', false, 1);
    await run('counted_custom', false, 2);
    expect(await plans('counted_custom')).toEqual({ generic_plans: 0, custom_plans: 2 });
    await run('counted_generic', true, 4);
    expect(await plans('counted_generic')).toEqual({ generic_plans: 4, custom_plans: 0 });
    const client = await db.connect();
    try {
      expect(
        (await client.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode')).rows,
      ).toEqual([{ plan_cache_mode: 'auto' }]);
    } finally {
      client.release();
    }
  });

  it('runs every session without JIT, keeping session options the URL gives', async () => {
    expect((await db.query<{ jit: string }>('SHOW jit')).rows[0]?.jit).toBe('off');
    const url = new URL(owner.url);
    url.searchParams.set('options', '-c statement_timeout=4321');
    const withOptions = openDatabase(url.toString(), { max: 1 });
    try {
      const { rows } = await withOptions.query<{ jit: string; timeout: string }>(
        `SELECT current_setting('jit') AS "jit", current_setting('statement_timeout') AS "timeout"`,
      );
      expect(rows[0]).toEqual({ jit: 'off', timeout: '4321ms' });
    } finally {
      await withOptions.close();
    }
  });
});
