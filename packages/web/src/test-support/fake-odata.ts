import odataParser from '@balena/odata-parser';
import type { ExpandPropertyPath, ODataBinds, ODataOptions } from '@balena/odata-parser';

// A strict, in-memory answer to the /v7 reads the console sends, for component tests: the real
// SDK builds the URL, this parses it with the server's OData parser and evaluates it on fixture
// rows. Whatever it does not implement (an operator, a function, an option, a field the fixture
// lacks) throws FakeApiError instead of answering loosely.

// A fixture row: scalar fields, foreign keys as `{ __id }`, navigations as arrays of rows (what
// the console may $expand or filter through with any/all).
export type FakeRow = { readonly [field: string]: unknown };
export type FakeData = Record<string, FakeRow[]>;

export class FakeApiError extends Error {}

const unsupported = (what: string): never => {
  throw new FakeApiError(`The fake API does not understand ${what}`);
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isRowList = (value: unknown): value is FakeRow[] =>
  Array.isArray(value) && value.every(isRecord);

type Context = { binds: ODataBinds; where: string };
type Scope = ReadonlyMap<string, FakeRow>;

const valueOf = (bind: readonly unknown[], context: Context): unknown => {
  const [type, value] = bind;
  switch (type) {
    case 'Real':
    case 'Integer':
    case 'Text':
    case 'Boolean':
      return value;
    case 'Date':
    case 'Date Time':
      return value instanceof Date ? value.toISOString() : value;
    case 'List':
      return Array.isArray(value)
        ? value.map((item: unknown) =>
            Array.isArray(item)
              ? valueOf(item, context)
              : unsupported(`a list in ${context.where}`),
          )
        : unsupported(`a list in ${context.where}`);
    default:
      return unsupported(`${String(type)} values in ${context.where}`);
  }
};

const bindValue = (context: Context, reference: unknown): unknown => {
  if (!isRecord(reference) || typeof reference.bind !== 'number') {
    return unsupported(`the value ${JSON.stringify(reference)} in ${context.where}`);
  }
  const bind = context.binds[reference.bind];
  return bind ? valueOf(bind, context) : unsupported(`bind ${reference.bind} in ${context.where}`);
};

const fieldOf = (row: FakeRow, name: string, context: Context): unknown => {
  if (!(name in row)) {
    throw new FakeApiError(`The fixture row of ${context.where} lacks "${name}"`);
  }
  return row[name];
};

// What a field compares as: a foreign key `{ __id }` and an expanded to-one row as its id.
const comparable = (value: unknown, context: Context): unknown => {
  if (isRecord(value) && typeof value.__id === 'number') return value.__id;
  if (Array.isArray(value)) {
    const [only] = value;
    if (value.length === 1 && isRecord(only) && 'id' in only) return only.id;
    return unsupported(`comparing a to-many navigation in ${context.where}`);
  }
  return value;
};

const navigate = (value: unknown, name: string, context: Context): FakeRow[] => {
  if (!isRowList(value)) {
    throw new FakeApiError(`The fixture of ${context.where} needs "${name}" as an array of rows`);
  }
  return value;
};

const evaluatePath = (
  node: Record<string, unknown>,
  row: FakeRow,
  scope: Scope,
  context: Context,
): unknown => {
  const name = node.name;
  if (typeof name !== 'string') return unsupported(`the path ${JSON.stringify(node)}`);
  const variable = scope.get(name);
  const value = variable ?? fieldOf(row, name, context);
  const lambda = node.lambda;
  if (isRecord(lambda)) {
    const rows = navigate(value, name, context);
    const { identifier, method, expression } = lambda;
    if (typeof identifier !== 'string') return unsupported('a lambda without a variable');
    const test = (item: FakeRow): boolean =>
      truthy(evaluate(expression, row, new Map([...scope, [identifier, item]]), context), context);
    if (method === 'any') return rows.some(test);
    if (method === 'all') return rows.every(test);
    return unsupported(`the lambda ${String(method)}`);
  }
  const property = node.property;
  if (property === undefined) return comparable(value, context);
  if (!isRecord(property)) return unsupported(`the path ${JSON.stringify(node)}`);
  // Through a lambda variable, or an expanded to-one navigation, to a field of that row.
  const target = variable ?? navigate(value, name, context)[0];
  if (target === undefined) return null;
  return evaluatePath(property, target, new Map(), context);
};

const truthy = (value: unknown, context: Context): boolean =>
  typeof value === 'boolean' ? value : unsupported(`a non-boolean condition in ${context.where}`);

const text = (value: unknown, context: Context): string =>
  typeof value === 'string' ? value : unsupported(`a non-text argument in ${context.where}`);

const compare = (operator: string, left: unknown, right: unknown, context: Context): boolean => {
  if (operator === 'eq') return left === right;
  if (operator === 'ne') return left !== right;
  if (left === null || right === null) return false;
  const order =
    typeof left === 'number' && typeof right === 'number'
      ? Math.sign(left - right)
      : typeof left === 'string' && typeof right === 'string'
        ? left.localeCompare(right)
        : unsupported(`${operator} between ${typeof left} and ${typeof right} in ${context.where}`);
  if (operator === 'gt') return order > 0;
  if (operator === 'ge') return order >= 0;
  if (operator === 'lt') return order < 0;
  return order <= 0;
};

const call = (
  node: Record<string, unknown>,
  row: FakeRow,
  scope: Scope,
  context: Context,
): unknown => {
  const { method, args } = node;
  if (!Array.isArray(args)) return unsupported(`the call ${String(method)}`);
  const values = args.map((arg) => evaluate(arg, row, scope, context));
  const [first, second] = values;
  switch (method) {
    case 'tolower':
      return text(first, context).toLowerCase();
    case 'toupper':
      return text(first, context).toUpperCase();
    case 'contains':
      return text(first, context).includes(text(second, context));
    case 'startswith':
      return text(first, context).startsWith(text(second, context));
    case 'endswith':
      return text(first, context).endsWith(text(second, context));
    default:
      return unsupported(`the function ${String(method)} in ${context.where}`);
  }
};

const evaluate = (node: unknown, row: FakeRow, scope: Scope, context: Context): unknown => {
  if (node === null) return null;
  if (Array.isArray(node)) {
    const [operator, ...operands] = node;
    switch (operator) {
      case 'and':
        return operands.every((operand) => truthy(evaluate(operand, row, scope, context), context));
      case 'or':
        return operands.some((operand) => truthy(evaluate(operand, row, scope, context), context));
      case 'not':
        return !truthy(evaluate(operands[0], row, scope, context), context);
      case 'eq':
      case 'ne':
      case 'gt':
      case 'ge':
      case 'lt':
      case 'le':
        return compare(
          operator,
          evaluate(operands[0], row, scope, context),
          evaluate(operands[1], row, scope, context),
          context,
        );
      case 'eqany': {
        const list = evaluate(operands[1], row, scope, context);
        if (!Array.isArray(list)) return unsupported(`in without a list in ${context.where}`);
        return list.includes(evaluate(operands[0], row, scope, context));
      }
      case 'call':
        return isRecord(operands[0])
          ? call(operands[0], row, scope, context)
          : unsupported('a call without arguments');
      default:
        return unsupported(`the operator ${String(operator)} in ${context.where}`);
    }
  }
  if (isRecord(node) && 'bind' in node) return bindValue(context, node);
  if (isRecord(node) && 'name' in node) return evaluatePath(node, row, scope, context);
  return unsupported(`the filter ${JSON.stringify(node)} in ${context.where}`);
};

const numberOption = (value: unknown, context: Context): number => {
  const resolved = isRecord(value) ? bindValue(context, value) : value;
  return typeof resolved === 'number' ? resolved : unsupported(`a non-numeric $top or $skip`);
};

const knownOptions = new Set(['$select', '$filter', '$expand', '$orderby', '$top', '$skip']);

const selectFields = (
  row: FakeRow,
  select: ODataOptions['$select'],
  expanded: ReadonlySet<string>,
  context: Context,
): Record<string, unknown> => {
  const names =
    select === undefined || select === '*'
      ? Object.keys(row).filter((name) => !isRowList(row[name]) || expanded.has(name))
      : select.properties.map((property) =>
          property.property === undefined ? property.name : unsupported('a $select path'),
        );
  const picked: Record<string, unknown> = {};
  for (const name of names) {
    if (expanded.has(name)) continue;
    const value = fieldOf(row, name, context);
    // Selected but not expanded, a to-one navigation answers its key.
    picked[name] = Array.isArray(value)
      ? value.length === 0
        ? null
        : { __id: comparable(value, context) }
      : value;
  }
  return picked;
};

const sortRows = (rows: FakeRow[], options: ODataOptions, context: Context): FakeRow[] => {
  const order = options.$orderby;
  if (order === undefined) return rows;
  return [...rows].sort((a, b) => {
    for (const property of order.properties) {
      if (property.property !== undefined) return unsupported('ordering by a path');
      // `nav/$count`: the number of the row's (fixture) navigation rows.
      const valueOf = (row: FakeRow): unknown =>
        'count' in property && property.count === true
          ? navigate(fieldOf(row, property.name, context), property.name, context).length
          : comparable(fieldOf(row, property.name, context), context);
      const left = valueOf(a);
      const right = valueOf(b);
      if (left === right) continue;
      const before = compare('lt', left, right, context) ? -1 : 1;
      return property.order === 'desc' ? -before : before;
    }
    return 0;
  });
};

const expandOf = (row: FakeRow, property: ExpandPropertyPath, context: Context): unknown => {
  const where = `${context.where}/${property.name}`;
  const rows = navigate(fieldOf(row, property.name, context), property.name, context);
  const options = property.options ?? {};
  if (property.count === true) return filterRows(rows, options, { ...context, where }).length;
  return applyOptions(rows, options, { ...context, where });
};

const filterRows = (rows: FakeRow[], options: ODataOptions, context: Context): FakeRow[] => {
  for (const key of Object.keys(options)) {
    if (!knownOptions.has(key)) unsupported(`the option ${key} in ${context.where}`);
  }
  const filter = options.$filter;
  if (filter === undefined) return rows;
  return rows.filter((row) => truthy(evaluate(filter, row, new Map(), context), context));
};

const applyOptions = (
  rows: FakeRow[],
  options: ODataOptions,
  context: Context,
): Record<string, unknown>[] => {
  const sorted = sortRows(filterRows(rows, options, context), options, context);
  const skip = options.$skip === undefined ? 0 : numberOption(options.$skip, context);
  const top = options.$top === undefined ? sorted.length : numberOption(options.$top, context);
  const expands = options.$expand?.properties ?? [];
  const expanded = new Set(expands.map((property) => property.name));
  return sorted.slice(skip, skip + top).map((row) => {
    const answer = selectFields(row, options.$select, expanded, context);
    for (const property of expands) {
      if (property.property !== undefined) unsupported('an $expand path');
      answer[property.name] = expandOf(row, property, context);
    }
    return answer;
  });
};

const keyFilter = (key: unknown, context: Context): ((row: FakeRow) => boolean) => {
  if (isRecord(key) && 'bind' in key) {
    const id = bindValue(context, key);
    return (row) => row.id === id;
  }
  if (isRecord(key)) {
    const entries = Object.entries(key).map(([name, value]) => [name, bindValue(context, value)]);
    return (row) =>
      entries.every(([name, value]) => typeof name === 'string' && row[name] === value);
  }
  return unsupported(`the key ${JSON.stringify(key)}`);
};

// Answers GET /v7/<pathAndQuery> from the data: the `d` of the response.
export const answerRead = (data: FakeData, pathAndQuery: string): unknown => {
  const { tree, binds } = odataParser.parse(pathAndQuery);
  const resource: unknown = tree.resource;
  if (typeof resource !== 'string') return unsupported(pathAndQuery);
  if (tree.property !== undefined || tree.link !== undefined) return unsupported(pathAndQuery);
  const context: Context = { binds, where: resource };
  const rows = (data[resource] ?? []).filter(
    tree.key === undefined ? () => true : keyFilter(tree.key, context),
  );
  const options = tree.options ?? {};
  if (tree.count === true) return filterRows(rows, options, context).length;
  return applyOptions(rows, options, context);
};

// The resource and key of a write's URL, e.g. /device(5) → device, 5.
export const writeTarget = (path: string): { resource: string; id: number | undefined } => {
  const match = /^\/([a-z_]+)(?:\((\d+)\))?$/.exec(path);
  if (!match?.[1]) return unsupported(`the write to ${path}`);
  return { resource: match[1], id: match[2] === undefined ? undefined : Number(match[2]) };
};
