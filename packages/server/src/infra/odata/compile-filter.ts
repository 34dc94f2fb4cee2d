import type { Field, Navigation, Resource } from '../../model/model-types.js';
import { badRequest } from '../errors/api-error.js';
import { countByEquality } from './compile-count.js';
import {
  type CompileContext,
  fromClause,
  readFilter,
  resourceOf,
  type RowScope,
} from './compile-context.js';
import {
  bindOperand,
  bindType,
  isBindReference,
  listBind,
  listArray,
  literalKind,
  type SqlOperand,
} from './odata-values.js';
import {
  arithmeticOperand,
  expectComparable,
  expectKind,
  isArithmetic,
  kindOf,
  type ValueKind,
} from './operand-types.js';
import { quoteIdentifier } from './sql-params.js';

// Lambda variables in scope (e.g. `a` in `belongs_to__application/any(a: a/slug eq 'x')`).
export type Variables = ReadonlyMap<string, RowScope>;

type PathNode = {
  name: string;
  property?: PathNode;
  lambda?: { method: string; identifier: string; expression: unknown };
  count?: true;
  options?: { $filter?: unknown };
};

const isPathNode = (node: unknown): node is PathNode =>
  typeof node === 'object' && node !== null && !Array.isArray(node) && 'name' in node;

const comparison: Record<string, string> = {
  eq: '=',
  ne: '<>',
  gt: '>',
  ge: '>=',
  lt: '<',
  le: '<=',
};

export const visibleField = (resource: Resource, name: string): Field | undefined => {
  const field = resource.fields.get(name);
  return field && !field.hidden ? field : undefined;
};

export const fieldSql = (ctx: CompileContext, scope: RowScope, field: Field): string => {
  const sql = field.computed
    ? field.computed(scope.alias)
    : `${scope.alias}.${quoteIdentifier(field.column)}`;
  return field.ownerOnly
    ? `(CASE WHEN ${ctx.ownRow(scope.resource, scope.alias)} THEN ${sql} END)`
    : sql;
};

export const navigationOf = (resource: Resource, name: string): Navigation => {
  const navigation = resource.navigations.get(name);
  if (!navigation) {
    throw badRequest(`Unknown field or navigation '${name}' on '${resource.name}'`);
  }
  return navigation;
};

const childScope = (ctx: CompileContext, navigation: Navigation): RowScope => ({
  alias: ctx.nextAlias(),
  resource: resourceOf(ctx.model, navigation.target),
});

// `nav/$count` (optionally with its own $filter) over the rows the actor may read.
export const countSql = (
  ctx: CompileContext,
  from: RowScope,
  navigation: Navigation,
  filter: unknown,
  variables: Variables,
): string => {
  if (!navigation.many) throw badRequest(`'${navigation.name}' is not a collection to count`);
  const child = childScope(ctx, navigation);
  const read = readFilter(ctx, child);
  const shortcut = countByEquality(ctx, from, navigation, child, read, filter);
  if (shortcut !== undefined) return shortcut;
  const conditions = [navigation.join(from.alias, child.alias), read];
  if (filter !== undefined) conditions.push(compileFilter(ctx, child, filter, variables));
  return `(SELECT count(*) FROM ${fromClause(child)} WHERE ${conditions.join(' AND ')})`;
};

// A value reached by a path of to-one navigations ending in a field, a foreign key or a count.
const pathOperand = (
  ctx: CompileContext,
  from: RowScope,
  node: PathNode,
  variables: Variables,
): SqlOperand => {
  const variable = variables.get(node.name);
  if (variable) {
    if (!node.property) throw badRequest(`Lambda variable '${node.name}' needs a property`);
    return pathOperand(ctx, variable, node.property, variables);
  }
  if (node.lambda) throw badRequest(`any()/all() yields a boolean, not a value`);
  const field = visibleField(from.resource, node.name);
  if (field && !node.property && !node.count) {
    return { sql: fieldSql(ctx, from, field), type: field.type };
  }
  const navigation = navigationOf(from.resource, node.name);
  if (node.count)
    return {
      sql: countSql(ctx, from, navigation, node.options?.$filter, variables),
      type: 'bigint',
    };
  if (navigation.many) {
    throw badRequest(`'${node.name}' is a collection: use any(), all() or $count`);
  }
  if (!node.property) {
    if (!navigation.local) throw badRequest(`'${node.name}' cannot be compared to a value`);
    return { sql: navigation.local(from.alias), type: 'integer' };
  }
  if (node.property.name === 'id' && !node.property.property && navigation.local) {
    return { sql: navigation.local(from.alias), type: 'integer' };
  }
  const child = childScope(ctx, navigation);
  const inner = pathOperand(ctx, child, node.property, variables);
  return {
    sql: `(SELECT ${inner.sql} FROM ${fromClause(child)} WHERE ${navigation.join(from.alias, child.alias)} AND ${readFilter(ctx, child)})`,
    type: inner.type,
  };
};

// A path ending in any()/all(): nested EXISTS over the permitted rows of each hop.
const lambdaSql = (
  ctx: CompileContext,
  from: RowScope,
  node: PathNode,
  variables: Variables,
): string => {
  const variable = variables.get(node.name);
  if (variable && node.property) return lambdaSql(ctx, variable, node.property, variables);
  const navigation = navigationOf(from.resource, node.name);
  const child = childScope(ctx, navigation);
  const link = `${navigation.join(from.alias, child.alias)} AND ${readFilter(ctx, child)}`;
  if (node.property) {
    return `EXISTS (SELECT 1 FROM ${fromClause(child)} WHERE ${link} AND ${lambdaSql(ctx, child, node.property, variables)})`;
  }
  const lambda = node.lambda;
  if (!lambda) throw badRequest(`Expected any() or all() after '${node.name}'`);
  const inner = new Map(variables);
  inner.set(lambda.identifier, child);
  const predicate = compileFilter(ctx, child, lambda.expression, inner);
  if (lambda.method === 'any') {
    return `EXISTS (SELECT 1 FROM ${fromClause(child)} WHERE ${link} AND (${predicate}))`;
  }
  if (lambda.method === 'all') {
    return `NOT EXISTS (SELECT 1 FROM ${fromClause(child)} WHERE ${link} AND NOT coalesce((${predicate}), false))`;
  }
  throw badRequest(`Unsupported lambda ${lambda.method}`);
};

const endsInLambda = (node: PathNode, variables: Variables): boolean =>
  node.lambda !== undefined ||
  (node.property !== undefined && endsInLambda(node.property, variables));

// Argument kinds of each function; the result is what the SQL yields.
const signatures: Record<string, { args: ValueKind[]; type: SqlOperand['type'] }> = {
  startswith: { args: ['text', 'text'], type: 'boolean' },
  endswith: { args: ['text', 'text'], type: 'boolean' },
  contains: { args: ['text', 'text'], type: 'boolean' },
  substringof: { args: ['text', 'text'], type: 'boolean' },
  tolower: { args: ['text'], type: 'text' },
  toupper: { args: ['text'], type: 'text' },
  trim: { args: ['text'], type: 'text' },
  length: { args: ['text'], type: 'integer' },
  indexof: { args: ['text', 'text'], type: 'integer' },
  concat: { args: ['text', 'text'], type: 'text' },
  substring: { args: ['text', 'number', 'number'], type: 'text' },
  year: { args: ['date'], type: 'integer' },
  month: { args: ['date'], type: 'integer' },
  day: { args: ['date'], type: 'integer' },
  hour: { args: ['date'], type: 'integer' },
  minute: { args: ['date'], type: 'integer' },
  second: { args: ['date'], type: 'integer' },
  now: { args: [], type: 'date' },
  round: { args: ['number'], type: 'real' },
  floor: { args: ['number'], type: 'real' },
  ceiling: { args: ['number'], type: 'real' },
};

const functionSql = (method: string, [a, b, c]: readonly string[], count: number): string => {
  switch (method) {
    case 'startswith':
      return `starts_with(${a}, ${b})`;
    case 'endswith':
      return `(right(${a}, length(${b})) = ${b})`;
    case 'contains':
      return `(strpos(${a}, ${b}) > 0)`;
    case 'substringof':
      return `(strpos(${b}, ${a}) > 0)`;
    case 'tolower':
      return `lower(${a})`;
    case 'toupper':
      return `upper(${a})`;
    case 'trim':
      return `btrim(${a})`;
    case 'length':
      return `length(${a})`;
    case 'indexof':
      return `(strpos(${a}, ${b}) - 1)`;
    case 'concat':
      return `(${a} || ${b})`;
    case 'substring':
      // Integer positions: a fractional one would make PostgreSQL look for another substr().
      return count === 2
        ? `substr(${a}, (${b})::integer + 1)`
        : `substr(${a}, (${b})::integer + 1, (${c})::integer)`;
    case 'now':
      return 'now()';
    case 'ceiling':
      return `ceil(${a})`;
    case 'round':
    case 'floor':
      return `${method}(${a})`;
    default:
      return `extract(${method} from ${a})::integer`;
  }
};

const callOperand = (
  ctx: CompileContext,
  from: RowScope,
  method: string,
  args: unknown[],
  variables: Variables,
): SqlOperand => {
  const signature = Object.hasOwn(signatures, method) ? signatures[method] : undefined;
  if (!signature) throw badRequest(`Unsupported function ${method}()`);
  // substring() takes its length optionally.
  const optional = method === 'substring' ? 1 : 0;
  const arity = signature.args.length;
  if (args.length > arity || args.length < arity - optional) {
    throw badRequest(`${method}() takes ${arity} argument(s)`);
  }
  const operands = args.map((arg) => operand(ctx, from, arg, variables));
  operands.forEach((value, index) => {
    expectKind(value, signature.args[index] ?? 'any', `${method}() in $filter`);
  });
  const sql = functionSql(
    method,
    operands.map((value) => value.sql),
    operands.length,
  );
  return { sql, type: signature.type };
};

export const operand = (
  ctx: CompileContext,
  from: RowScope,
  node: unknown,
  variables: Variables,
): SqlOperand => {
  if (node === null) return { sql: 'NULL', type: 'null' };
  if (isBindReference(node)) return bindOperand(ctx, node);
  if (isPathNode(node)) {
    if (endsInLambda(node, variables)) {
      return { sql: lambdaSql(ctx, from, node, variables), type: 'boolean' };
    }
    return pathOperand(ctx, from, node, variables);
  }
  if (Array.isArray(node)) {
    const [op, ...args] = node as [unknown, ...unknown[]];
    if (op === 'call') {
      const call = args[0] as { method?: unknown; args?: unknown };
      if (typeof call?.method !== 'string' || !Array.isArray(call.args)) {
        throw badRequest('Malformed function call');
      }
      return callOperand(ctx, from, call.method, call.args, variables);
    }
    if (isArithmetic(op)) {
      return arithmeticOperand(
        op,
        args.map((arg) => operand(ctx, from, arg, variables)),
      );
    }
    return { sql: compileFilter(ctx, from, node, variables), type: 'boolean' };
  }
  throw badRequest('Unsupported expression in $filter');
};

// The field a path names directly: `status` on `from`, or `d/status` on a lambda variable.
const directField = (
  from: RowScope,
  node: PathNode,
  variables: Variables,
): { scope: RowScope; field: Field } | undefined => {
  const variable = variables.get(node.name);
  const scope = variable ?? from;
  const target = variable ? node.property : node;
  if (!target || target.property || target.lambda || target.count) return undefined;
  if (!variable && node.property) return undefined;
  const field = visibleField(scope.resource, target.name);
  return field ? { scope, field } : undefined;
};

// `field eq literal` (either way round) for a field that states its own equality
// (FieldDefinition.equals); undefined compiles the plain comparison.
const fieldEquality = (
  ctx: CompileContext,
  from: RowScope,
  [a, b]: unknown[],
  variables: Variables,
): string | undefined => {
  const [path, reference] = isBindReference(b) ? [a, b] : isBindReference(a) ? [b, a] : [];
  if (!isPathNode(path) || !isBindReference(reference)) return undefined;
  const target = directField(from, path, variables);
  const equals = target?.field.equals;
  if (!target || !equals) return undefined;
  const kind = literalKind(bindType(ctx.binds, reference));
  if (kind === undefined || kindOf({ sql: '', type: target.field.type }) !== kind) return undefined;
  const value = ctx.pin(reference);
  const literal =
    kind === 'text' ? String(value) : kind === 'number' ? Number(value) : value === true;
  const sql = equals(target.scope.alias, literal);
  return sql === undefined ? undefined : `(${sql})`;
};

// Compiles a parsed $filter expression into a SQL condition over `from`.
export const compileFilter = (
  ctx: CompileContext,
  from: RowScope,
  node: unknown,
  variables: Variables = new Map(),
): string => {
  if (!Array.isArray(node)) {
    const value = operand(ctx, from, node, variables);
    if (value.type !== 'boolean' && value.type !== 'unknown') {
      throw badRequest('$filter must be a boolean expression');
    }
    return value.sql;
  }
  const [op, ...args] = node as [unknown, ...unknown[]];
  if (op === 'and' || op === 'or') {
    if (args.length < 2) throw badRequest(`'${op}' needs two operands`);
    const parts = args.map((arg) => compileFilter(ctx, from, arg, variables));
    return `(${parts.join(op === 'and' ? ' AND ' : ' OR ')})`;
  }
  if (op === 'not') return `(NOT coalesce(${compileFilter(ctx, from, args[0], variables)}, false))`;
  if (op === 'eqany' || op === 'in') {
    const left = operand(ctx, from, args[0], variables);
    if (!isBindReference(args[1])) throw badRequest("'in' expects a list of values");
    // One array parameter plans far faster than hundreds of scalars (the SDK sends 200 ids).
    const array = listArray(ctx, args[1]);
    if (array) {
      expectKind(left, array.type === 'text' ? 'text' : 'number', "'in' in $filter");
      return `(${left.sql} = ANY(${array.sql}))`;
    }
    const values = listBind(ctx, args[1]);
    for (const value of values) expectComparable(left, value, "'in' in $filter");
    if (values.length === 0) return 'false';
    return `(${left.sql} IN (${values.map((value) => value.sql).join(', ')}))`;
  }
  if (typeof op === 'string' && comparison[op]) {
    const equality = op === 'eq' ? fieldEquality(ctx, from, args, variables) : undefined;
    if (equality !== undefined) return equality;
    const left = operand(ctx, from, args[0], variables);
    const right = operand(ctx, from, args[1], variables);
    if (left.type === 'null' || right.type === 'null') {
      if (op !== 'eq' && op !== 'ne') throw badRequest(`Cannot compare null with ${op}`);
      const other = left.type === 'null' ? right : left;
      return `(${other.sql} IS ${op === 'eq' ? '' : 'NOT '}NULL)`;
    }
    expectComparable(left, right, `'${op}' in $filter`);
    return `(${left.sql} ${comparison[op]} ${right.sql})`;
  }
  if (op === 'call') return operand(ctx, from, node, variables).sql;
  throw badRequest(`Unsupported operator ${String(op)}`);
};
