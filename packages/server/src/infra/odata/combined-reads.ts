import { createHash } from 'node:crypto';
import type { SqlValue } from '../db/database.js';
import type { ReadStatement } from './statement-cache.js';

// Several /v7 reads as one statement: each compiled read is a single-row, single-column SELECT
// (`... AS d` or `count(*) AS n`, compile-read.ts), so they become the columns of one SELECT of
// scalar subqueries. Seven counts then cost two round trips and two plans instead of seven
// (register-batch-route.ts runs a batch as two such statements side by side).

// countsOnly: every part is (CompiledGet.countsOnly), so the statement may be planned generically.
export type CombinedReads = {
  text: string;
  values: SqlValue[];
  name: string | undefined;
  countsOnly: boolean;
};

// `sql` with every parameter placeholder $n moved up by `offset`. Placeholders are found
// outside quoted text only: string constants ('it''s $1') and quoted identifiers ("a$1") are
// copied as they are. The compiler writes no dollar-quoted strings or comments.
export const shiftParameters = (sql: string, offset: number): string => {
  if (offset === 0) return sql;
  let out = '';
  let index = 0;
  while (index < sql.length) {
    const char = sql[index];
    if (char === "'" || char === '"') {
      // Up to the closing quote; a doubled quote is an escaped one inside the text.
      let end = index + 1;
      for (;;) {
        const close = sql.indexOf(char, end);
        if (close === -1) throw new Error('shiftParameters: unterminated quoted text');
        if (sql[close + 1] === char) {
          end = close + 2;
          continue;
        }
        end = close + 1;
        break;
      }
      out += sql.slice(index, end);
      index = end;
      continue;
    }
    if (char === '$') {
      const digits = /^\d+/.exec(sql.slice(index + 1))?.[0];
      if (digits !== undefined) {
        out += `$${Number(digits) + offset}`;
        index += 1 + digits.length;
        continue;
      }
    }
    out += char;
    index += 1;
  }
  return out;
};

// One statement answering `statements` in order, column i for statement i. Prepared when every
// part is (its name derives from theirs, so it always comes with the same text).
export const combineReads = (statements: readonly ReadStatement[]): CombinedReads => {
  const columns: string[] = [];
  const values: SqlValue[] = [];
  for (const [index, statement] of statements.entries()) {
    columns.push(`(${shiftParameters(statement.text, values.length)}) AS "c${index}"`);
    values.push(...statement.values);
  }
  const names = statements.map((statement) => statement.name);
  const prepared = names.every((name) => name !== undefined);
  return {
    text: `SELECT ${columns.join(', ')}`,
    values,
    countsOnly: statements.every((statement) => statement.countsOnly),
    name: prepared
      ? `v7b_${createHash('sha256').update(names.join(',')).digest('hex').slice(0, 32)}`
      : undefined,
  };
};

// combineReads, remembering the text of the last `maxEntries` prepared combinations (a part's
// name fixes its text, hence its number of values): a screen sends the same batch every few
// seconds, and rewriting its placeholders each time took a sixth of the server's time on the
// fleet-list counts.
export type ReadCombiner = (statements: readonly ReadStatement[]) => CombinedReads;

export const createReadCombiner = (maxEntries: number): ReadCombiner => {
  const known = new Map<string, Omit<CombinedReads, 'values'>>();
  return (statements) => {
    const names = statements.map((statement) => statement.name);
    if (names.some((name) => name === undefined)) return combineReads(statements);
    const key = names.join(',');
    const values = statements.flatMap((statement) => statement.values);
    const hit = known.get(key);
    if (hit) return { ...hit, values };
    const combined = combineReads(statements);
    if (known.size >= maxEntries) {
      const oldest = known.keys().next();
      if (!oldest.done) known.delete(oldest.value);
    }
    known.set(key, { text: combined.text, name: combined.name, countsOnly: combined.countsOnly });
    return combined;
  };
};
