import { describe, expect, it } from 'vitest';
import type { SqlValue } from '../db/database.js';
import { combineReads, createReadCombiner, shiftParameters } from './combined-reads.js';
import type { ReadStatement } from './statement-cache.js';

describe('shiftParameters', () => {
  it('moves every placeholder up, outside quoted text only', () => {
    expect(shiftParameters('SELECT $1, $2 WHERE a = $10', 3)).toBe('SELECT $4, $5 WHERE a = $13');
    expect(shiftParameters(`SELECT '$1', 'it''s $2', "col$3", $4`, 10)).toBe(
      `SELECT '$1', 'it''s $2', "col$3", $14`,
    );
    expect(shiftParameters(`SELECT '[]'::json, $1::jsonb`, 1)).toBe(`SELECT '[]'::json, $2::jsonb`);
    expect(shiftParameters('SELECT $1', 0)).toBe('SELECT $1');
  });

  it('refuses text it cannot read rather than guess', () => {
    expect(() => shiftParameters(`SELECT 'open $1`, 1)).toThrow(/unterminated/);
  });
});

describe('combineReads', () => {
  const read = (text: string, values: SqlValue[], name?: string, count = false): ReadStatement => ({
    text,
    values,
    count,
    countsOnly: count,
    name,
  });

  it('makes each read a column, with its values after the previous ones', () => {
    const combined = combineReads([
      read('SELECT count(*) AS n FROM t WHERE a = $1', [5], 'v7_a', true),
      read('SELECT x AS d FROM t WHERE b = $1 AND c = $2', ['x', 'y'], 'v7_b'),
    ]);
    expect(combined.text).toBe(
      'SELECT (SELECT count(*) AS n FROM t WHERE a = $1) AS "c0", ' +
        '(SELECT x AS d FROM t WHERE b = $2 AND c = $3) AS "c1"',
    );
    expect(combined.values).toEqual([5, 'x', 'y']);
    expect(combined.name).toMatch(/^v7b_[0-9a-f]{32}$/);
  });

  it('is prepared only when every read is, under a name of their names', () => {
    const a = read('SELECT 1 AS n', [], 'v7_a', true);
    const b = read('SELECT 2 AS n', [], 'v7_b', true);
    expect(combineReads([a, b]).name).toBe(combineReads([a, b]).name);
    expect(combineReads([a, b]).name).not.toBe(combineReads([b, a]).name);
    expect(combineReads([a, read('SELECT 3 AS n', [], undefined, true)]).name).toBeUndefined();
  });

  it('remembers a prepared combination and answers it with the new values', () => {
    const combine = createReadCombiner(2);
    const a = (value: number) => read('SELECT count(*) AS n FROM t WHERE a = $1', [value], 'v7_a');
    const b = (value: string) => read('SELECT x AS d FROM t WHERE b = $1', [value], 'v7_b');
    const first = combine([a(1), b('x')]);
    const again = combine([a(2), b('y')]);
    expect(again).toEqual({ ...combineReads([a(2), b('y')]) });
    expect(again.text).toBe(first.text);
    expect(again.values).toEqual([2, 'y']);
    // Unprepared parts are combined afresh every time; the oldest combination makes room.
    const unnamed = read('SELECT 3 AS n', [], undefined, true);
    expect(combine([a(1), unnamed]).name).toBeUndefined();
    combine([b('x'), a(1)]);
    combine([b('x'), b('z')]);
    expect(combine([a(4), b('w')])).toEqual(combineReads([a(4), b('w')]));
  });
});
