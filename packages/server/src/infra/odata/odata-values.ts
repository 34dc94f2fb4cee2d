import type { BindReference } from '@balena/odata-parser';
import type { ScalarType } from '../../model/model-types.js';
import { badRequest } from '../errors/api-error.js';
import type { CompileContext } from './compile-context.js';

export type SqlOperand = { sql: string; type: ScalarType | 'unknown' | 'null' };

export const isBindReference = (value: unknown): value is BindReference =>
  typeof value === 'object' && value !== null && 'bind' in value;

const castOf = (value: number): string =>
  Number.isSafeInteger(value) ? 'bigint' : 'double precision';

type Bind = readonly [type: string, value: unknown];

const bindOf = (ctx: CompileContext, reference: BindReference): Bind => {
  const key = reference.bind;
  const bind = typeof key === 'number' ? ctx.binds[key] : ctx.binds[key];
  if (!bind) throw badRequest(`Unknown parameter ${String(key)}`);
  return bind;
};

// A literal from the URL as a typed placeholder (never inlined into SQL).
export const bindOperand = (ctx: CompileContext, reference: BindReference): SqlOperand =>
  literalOperand(ctx, bindOf(ctx, reference));

const literalOperand = (ctx: CompileContext, [type, value]: Bind): SqlOperand => {
  switch (type) {
    case 'Text':
      return { sql: `${ctx.params.add(String(value))}::text`, type: 'text' };
    case 'Real':
    case 'Integer':
    case 'Number': {
      const number = Number(value);
      if (!Number.isFinite(number)) throw badRequest(`Invalid number ${String(value)}`);
      return {
        sql: `${ctx.params.add(number)}::${castOf(number)}`,
        type: Number.isSafeInteger(number) ? 'bigint' : 'real',
      };
    }
    case 'Boolean':
      return { sql: `${ctx.params.add(Boolean(value))}::boolean`, type: 'boolean' };
    case 'Date':
    case 'Date Time': {
      const date = value instanceof Date ? value : new Date(value as number | string);
      if (Number.isNaN(date.getTime())) throw badRequest('Invalid date literal');
      return { sql: `${ctx.params.add(date.toISOString())}::timestamptz`, type: 'date' };
    }
    default:
      throw badRequest(`Unsupported literal type ${type}`);
  }
};

export const listBind = (ctx: CompileContext, reference: BindReference): SqlOperand[] => {
  const [type, items] = bindOf(ctx, reference);
  if (type !== 'List' || !Array.isArray(items)) throw badRequest('Expected a list of values');
  return items.map((item: unknown) => {
    if (!Array.isArray(item) || typeof item[0] !== 'string') throw badRequest('Malformed list');
    return literalOperand(ctx, [item[0], item[1]]);
  });
};

// A list literal of only whole numbers or only strings, as one array parameter's values.
export const listArray = (
  ctx: CompileContext,
  reference: BindReference,
): { type: 'bigint' | 'text'; values: (number | string)[] } | undefined => {
  const [type, items] = bindOf(ctx, reference);
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
