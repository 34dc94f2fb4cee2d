import { badRequest } from '../errors/api-error.js';
import type { SqlOperand } from './odata-values.js';

// Kinds of values in $filter, checked while compiling so that a mismatch is a 400 in our words
// rather than a PostgreSQL error (which would name its operators and types).
export type ValueKind = 'number' | 'text' | 'boolean' | 'date' | 'json' | 'any';

export const kindOf = (operand: SqlOperand): ValueKind => {
  switch (operand.type) {
    case 'integer':
    case 'bigint':
    case 'real':
      return 'number';
    case 'text':
    case 'boolean':
    case 'date':
    case 'json':
      return operand.type;
    case 'null':
    case 'unknown':
      return 'any';
  }
};

const kindNames: Record<ValueKind, string> = {
  number: 'a number',
  text: 'a string',
  boolean: 'a boolean',
  date: 'a date',
  json: 'a JSON value',
  any: 'a value',
};

// `where` names the place in the request, e.g. "tolower() in $filter" or "the key".
export const expectKind = (operand: SqlOperand, kind: ValueKind, where: string): void => {
  const actual = kindOf(operand);
  if (actual !== 'any' && actual !== kind) {
    throw badRequest(
      `Type mismatch: ${where} expects ${kindNames[kind]}, not ${kindNames[actual]}`,
    );
  }
};

export const expectComparable = (left: SqlOperand, right: SqlOperand, where: string): void => {
  const a = kindOf(left);
  const b = kindOf(right);
  if (a !== 'any' && b !== 'any' && a !== b) {
    throw badRequest(`Type mismatch: ${where} compares ${kindNames[a]} with ${kindNames[b]}`);
  }
  if (a === 'json' || b === 'json') throw badRequest(`JSON fields cannot be compared (${where})`);
};

const arithmeticSql: Record<string, string> = { add: '+', sub: '-', mul: '*', div: '/', mod: '%' };

export const isArithmetic = (op: unknown): op is string =>
  typeof op === 'string' && Object.hasOwn(arithmeticSql, op);

// `a add b add c` arrives as one node with three operands; it folds left, as OData reads it.
// Whole numbers stay whole (div is integer division, as in OData); mod needs whole numbers.
export const arithmeticOperand = (op: string, operands: readonly SqlOperand[]): SqlOperand => {
  if (operands.length < 2) throw badRequest(`'${op}' needs two operands`);
  for (const operand of operands) expectKind(operand, 'number', `'${op}' in $filter`);
  const whole = operands.every((operand) => operand.type !== 'real');
  if (op === 'mod' && !whole) throw badRequest("'mod' needs whole numbers");
  const [first, ...rest] = operands;
  const sql = rest.reduce(
    (left, right) => `(${left} ${arithmeticSql[op] ?? '+'} ${right.sql})`,
    first?.sql ?? 'NULL',
  );
  return { sql, type: whole ? 'bigint' : 'real' };
};
