import type { BindReference } from '@balena/odata-parser';
import type { ScalarType } from '../../model/model-types.js';
import type { SqlValue } from '../db/database.js';
import { badRequest } from '../errors/api-error.js';
import type { CompileContext } from './compile-context.js';
import type { LiteralBind as Bind } from './sql-params.js';

export type SqlOperand = { sql: string; type: ScalarType | 'unknown' | 'null' };

export const isBindReference = (value: unknown): value is BindReference =>
  typeof value === 'object' && value !== null && 'bind' in value;

// Whole numbers are compared as bigint, others as double precision: the literal's class, which is
// part of a compiled statement's key (request-shape.ts), decides it, not its value.
const castOf = (value: number): string =>
  Number.isSafeInteger(value) ? 'bigint' : 'double precision';

// A literal of the URL: a bind, or one item of a list bind (`in (...)`).
type LiteralPath = { reference: BindReference; item?: number };

const isBind = (value: unknown): value is Bind =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === 'string';

const bindAt = (binds: readonly Bind[], { reference, item }: LiteralPath): Bind => {
  const key = reference.bind;
  // Parameter aliases (@name) are named properties of the parser's binds.
  const found: unknown = typeof key === 'number' ? binds[key] : Reflect.get(binds, key);
  const bind = isBind(found) ? found : undefined;
  if (!bind) throw badRequest(`Unknown parameter ${String(key)}`);
  if (item === undefined) return bind;
  const [type, items] = bind;
  const entry: unknown = Array.isArray(items) ? items[item] : undefined;
  if (type !== 'List' || !Array.isArray(entry) || typeof entry[0] !== 'string') {
    throw badRequest('Malformed list');
  }
  return [entry[0], entry[1]];
};

export const bindValue = (binds: readonly Bind[], reference: BindReference): unknown =>
  bindAt(binds, { reference })[1];

export const bindType = (binds: readonly Bind[], reference: BindReference): string =>
  bindAt(binds, { reference })[0];

// The kind of value a scalar literal of this bind type is (operand-types.ts), if it is one.
export const literalKind = (type: string): 'text' | 'number' | 'boolean' | undefined => {
  if (type === 'Text') return 'text';
  if (type === 'Boolean') return 'boolean';
  return type === 'Real' || type === 'Integer' || type === 'Number' ? 'number' : undefined;
};

// A literal's value as its placeholder holds it; a value PostgreSQL cannot take is our 400.
const literalValue = ([type, value]: Bind): SqlValue => {
  switch (type) {
    case 'Text':
      return String(value);
    case 'Real':
    case 'Integer':
    case 'Number': {
      const number = Number(value);
      if (!Number.isFinite(number)) throw badRequest(`Invalid number ${String(value)}`);
      return number;
    }
    case 'Boolean':
      return Boolean(value);
    case 'Date':
    case 'Date Time': {
      const date = value instanceof Date ? value : new Date(value as number | string);
      if (Number.isNaN(date.getTime())) throw badRequest('Invalid date literal');
      return date.toISOString();
    }
    default:
      throw badRequest(`Unsupported literal type ${type}`);
  }
};

// A literal from the URL as a typed placeholder (never inlined into SQL), read again from each
// request that reuses the statement.
const literalOperand = (ctx: CompileContext, path: LiteralPath): SqlOperand => {
  const bind = bindAt(ctx.binds, path);
  const value = literalValue(bind);
  const placeholder = ctx.params.read((request) => literalValue(bindAt(request.binds, path)));
  switch (bind[0]) {
    case 'Text':
      return { sql: `${placeholder}::text`, type: 'text' };
    case 'Boolean':
      return { sql: `${placeholder}::boolean`, type: 'boolean' };
    case 'Date':
    case 'Date Time':
      return { sql: `${placeholder}::timestamptz`, type: 'date' };
    default: {
      const number = Number(value);
      return {
        sql: `${placeholder}::${castOf(number)}`,
        type: Number.isSafeInteger(number) ? 'bigint' : 'real',
      };
    }
  }
};

export const bindOperand = (ctx: CompileContext, reference: BindReference): SqlOperand =>
  literalOperand(ctx, { reference });

const listItems = (ctx: CompileContext, reference: BindReference): unknown[] => {
  const [type, items] = bindAt(ctx.binds, { reference });
  if (type !== 'List' || !Array.isArray(items)) throw badRequest('Expected a list of values');
  return items;
};

export const listBind = (ctx: CompileContext, reference: BindReference): SqlOperand[] =>
  listItems(ctx, reference).map((_item, item) => literalOperand(ctx, { reference, item }));

type ListArray = { type: 'bigint' | 'text'; values: (number | string)[] };

const arrayOf = (bind: Bind): ListArray | undefined => {
  const [type, items] = bind;
  if (type !== 'List' || !Array.isArray(items) || items.length === 0) return undefined;
  const pairs = items.map((item: unknown) => (Array.isArray(item) ? item : []));
  if (
    pairs.every(
      ([kind, value]) => (kind === 'Real' || kind === 'Integer') && Number.isSafeInteger(value),
    )
  ) {
    return { type: 'bigint', values: pairs.map(([, value]) => Number(value)) };
  }
  if (pairs.every(([kind, value]) => kind === 'Text' && typeof value === 'string')) {
    return { type: 'text', values: pairs.map(([, value]) => String(value)) };
  }
  return undefined;
};

// A list literal of only whole numbers or only strings, as one array placeholder (its length is
// not part of the statement, so lists of any length share one).
export const listArray = (
  ctx: CompileContext,
  reference: BindReference,
): { type: 'bigint' | 'text'; sql: string } | undefined => {
  const array = arrayOf(bindAt(ctx.binds, { reference }));
  if (!array) return undefined;
  const placeholder = ctx.params.read((request) => {
    const values = arrayOf(bindAt(request.binds, { reference }));
    if (values?.type !== array.type) throw badRequest('Expected a list of values');
    return values.values;
  });
  return { type: array.type, sql: `${placeholder}::${array.type}[]` };
};
