import type { ExpandOption, ODataOptions, OrderByOption, SelectOption } from '@balena/odata-parser';
import type { Field, Resource } from '../../model/model-types.js';
import { badRequest } from '../errors/api-error.js';
import {
  type CompileContext,
  fromClause,
  readFilter,
  resourceOf,
  type RowScope,
} from './compile-context.js';
import {
  compileFilter,
  countSql,
  fieldSql,
  navigationOf,
  operand,
  visibleField,
} from './compile-filter.js';
import { bindOperand, bindValue, isBindReference } from './odata-values.js';
import { expectComparable } from './operand-types.js';
import type { KeyReference } from './parse-request.js';
import { quoteIdentifier } from './sql-params.js';

const isoDate = (sql: string): string =>
  `to_char(${sql} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// A field as it appears in a response: dates as ISO strings, foreign keys as {"__id": n}.
const outputSql = (ctx: CompileContext, scope: RowScope, field: Field): string => {
  const sql = fieldSql(ctx, scope, field);
  if (field.references) {
    return `CASE WHEN ${sql} IS NULL THEN NULL ELSE json_build_object('__id', ${sql}) END`;
  }
  if (field.type === 'date') return isoDate(sql);
  return sql;
};

// The fields returned when there is no $select: every visible field, synonyms left out.
const defaultFields = (resource: Resource): Field[] =>
  [...resource.fields.values()].filter((field) => !field.hidden && field.name === field.column);

const selectedNames = (select: SelectOption | undefined): string[] | undefined => {
  if (select === undefined || select === '*') return undefined;
  return [...new Set(select.properties.map((property) => property.name))];
};

export const keyCondition = (ctx: CompileContext, scope: RowScope, key: KeyReference): string => {
  if (isBindReference(key)) {
    const value = bindOperand(ctx, key);
    expectComparable({ sql: '', type: 'integer' }, value, 'the key');
    return `${scope.alias}."id" = ${value.sql}`;
  }
  const names = Object.keys(key);
  const isAlternate =
    (names.length === 1 && names[0] === 'id') ||
    scope.resource.alternateKeys.some(
      (alternate) =>
        alternate.length === names.length && alternate.every((name) => names.includes(name)),
    );
  if (!isAlternate) {
    throw badRequest(`(${names.join(', ')}) is not a key of '${scope.resource.name}'`);
  }
  return names
    .map((name) => {
      const field = visibleField(scope.resource, name);
      const reference = key[name];
      if (!field || !reference) throw badRequest(`Unknown key field '${name}'`);
      const value = bindOperand(ctx, reference);
      expectComparable({ sql: '', type: field.type }, value, `the key '${name}'`);
      return `${fieldSql(ctx, scope, field)} = ${value.sql}`;
    })
    .join(' AND ');
};

const orderBySql = (ctx: CompileContext, scope: RowScope, orderby: OrderByOption): string =>
  orderby.properties
    .map((property) => {
      const direction = property.order === 'desc' ? 'DESC' : 'ASC';
      const value = operand(ctx, scope, property, new Map());
      return `${value.sql} ${direction}`;
    })
    .join(', ');

// The stored id column, when the resource has one (every table does; a view might not).
const idColumn = (scope: RowScope): string | undefined => {
  const id = scope.resource.fields.get('id');
  return id && !id.computed && id.column === 'id' ? `${scope.alias}."id"` : undefined;
};

// A page's ordering: $orderby, then the id for rows equal in every key, so that consecutive
// pages neither repeat nor skip a row of a tie (PostgreSQL orders ties arbitrarily, and may do
// so differently for another LIMIT or OFFSET).
const pageOrderSql = (ctx: CompileContext, scope: RowScope, orderby: OrderByOption): string => {
  const keys = orderBySql(ctx, scope, orderby);
  const id = idColumn(scope);
  const byId = orderby.properties.some((property) => property.name === 'id' && !property.property);
  return id && !byId ? `${keys}, ${id} ASC` : keys;
};

const checkedCount = (value: unknown, option: string): number => {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0) {
    throw badRequest(`${option} must be a non-negative integer`);
  }
  return number;
};

// $top and $skip: a literal of the URL (a placeholder read from each request), or a number the
// engine itself put in the options.
const nonNegativeInteger = (ctx: CompileContext, value: unknown, option: string): string => {
  if (!isBindReference(value)) return ctx.params.fixed(checkedCount(value, option));
  checkedCount(bindValue(ctx.binds, value), option);
  return ctx.params.read((request) => checkedCount(bindValue(request.binds, value), option));
};

type Collection = {
  scope: RowScope;
  options: ODataOptions;
  // Extra conditions: the navigation join for expands, the key for by-id reads.
  conditions: string[];
};

const expandSql = (
  ctx: CompileContext,
  parent: RowScope,
  expand: ExpandOption,
): { name: string; sql: string }[] => {
  // Only the batch's counts read together may expand a count more than once (each its own name).
  const names = expand.properties.map((item) =>
    ctx.repeatedCounts && item.count ? `${item.name}/$count` : item.name,
  );
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined && !repeated.endsWith('/$count')) {
    throw badRequest(`'${repeated}' is expanded twice`);
  }
  const seen = new Map<string, number>();
  return expand.properties.map((item) => {
    if (item.property) throw badRequest(`Use nested $expand instead of the path ${item.name}/...`);
    const navigation = navigationOf(parent.resource, item.name);
    const options = item.options ?? {};
    if (item.count) {
      const occurrence = seen.get(item.name) ?? 0;
      seen.set(item.name, occurrence + 1);
      return {
        name: ctx.repeatedCounts ? `${item.name}@${occurrence}` : item.name,
        sql: countSql(ctx, parent, navigation, options.$filter, new Map()),
      };
    }
    const child: RowScope = {
      alias: ctx.nextAlias(),
      resource: resourceOf(ctx.model, navigation.target),
    };
    const inner = collectionSql(ctx, {
      scope: child,
      options,
      conditions: [navigation.join(parent.alias, child.alias)],
    });
    const row = ctx.nextAlias();
    return {
      name: item.name,
      sql: `(SELECT coalesce(json_agg(${row}), '[]'::json) FROM (${inner}) ${row})`,
    };
  });
};

// SELECT ... FROM <resource> WHERE <conditions, permission, $filter> ORDER BY ... LIMIT ... OFFSET
export const collectionSql = (ctx: CompileContext, collection: Collection): string => {
  const { scope, options } = collection;
  const expanded = options.$expand ? expandSql(ctx, scope, options.$expand) : [];
  // A count expanded as `<name>@<k>` still answers for `<name>` in $select.
  const expandedNames = new Set(expanded.flatMap((item) => [item.name, item.name.split('@')[0]]));
  const names = selectedNames(options.$select);
  const columns: string[] = [];
  const fields = names
    ? names.map((name) => {
        const field = visibleField(scope.resource, name);
        if (field) return field;
        if (expandedNames.has(name)) return undefined;
        if (scope.resource.navigations.has(name)) {
          throw badRequest(`'${name}' is a collection: $expand it instead of selecting it`);
        }
        throw badRequest(`Unknown field '${name}' on '${scope.resource.name}'`);
      })
    : defaultFields(scope.resource);
  for (const field of fields) {
    if (field && !expandedNames.has(field.name)) {
      columns.push(`${outputSql(ctx, scope, field)} AS ${quoteIdentifier(field.name)}`);
    }
  }
  for (const item of expanded) columns.push(`${item.sql} AS ${quoteIdentifier(item.name)}`);
  if (columns.length === 0) columns.push(`${scope.alias}."id" AS "id"`);

  const conditions = [...collection.conditions, readFilter(ctx, scope)];
  if (options.$filter !== undefined) conditions.push(compileFilter(ctx, scope, options.$filter));
  const where = `WHERE ${conditions.join(' AND ')}`;
  const select = `SELECT ${columns.join(', ')}`;
  const paged = options.$top !== undefined || options.$skip !== undefined;
  if (!paged) {
    const orderBy = options.$orderby ? ` ORDER BY ${orderBySql(ctx, scope, options.$orderby)}` : '';
    return `${select} FROM ${fromClause(scope)} ${where}${orderBy}`;
  }
  const orderBy = options.$orderby ? ` ORDER BY ${pageOrderSql(ctx, scope, options.$orderby)}` : '';
  let page = '';
  if (options.$top !== undefined) page += ` LIMIT ${nonNegativeInteger(ctx, options.$top, '$top')}`;
  if (options.$skip !== undefined) {
    page += ` OFFSET ${nonNegativeInteger(ctx, options.$skip, '$skip')}`;
  }
  // Pick the page first, then compute expansions and computed fields for its rows only
  // (PostgreSQL would otherwise evaluate them for every skipped row as well). The page is picked
  // by id alone, so a deep page sorts and skips narrow rows (or walks an index) rather than
  // whole ones; its rows are then read again by primary key and put in order again (a page
  // without $orderby keeps the order the scan gave, as before).
  const id = idColumn(scope);
  if (!id || !options.$orderby) {
    const pageRows = `(SELECT ${scope.alias}.* FROM ${fromClause(scope)} ${where}${orderBy}${page})`;
    return `${select} FROM ${pageRows} ${scope.alias}${orderBy}`;
  }
  const pageIds = `(SELECT ${id} FROM ${fromClause(scope)} ${where}${orderBy}${page})`;
  const picked = ctx.nextAlias();
  return (
    `${select} FROM ${pageIds} ${picked} JOIN ${fromClause(scope)} ON ${id} = ${picked}."id"` +
    orderBy
  );
};

const checkOptions = (options: ODataOptions): void => {
  for (const name of Object.keys(options)) {
    if (
      name.startsWith('$') &&
      !['$select', '$expand', '$filter', '$orderby', '$top', '$skip'].includes(name)
    ) {
      throw badRequest(`Unsupported query option ${name}`);
    }
  }
};

// GET /v7/<resource>[(key)]: one statement yielding the whole `[...]` as JSON text.
export const readSql = (
  ctx: CompileContext,
  resource: Resource,
  options: ODataOptions,
  key: KeyReference | undefined,
  // The row just created, re-read to answer a POST.
  byId?: number,
): string => {
  checkOptions(options);
  const scope: RowScope = { alias: ctx.nextAlias(), resource };
  const conditions: string[] = [];
  if (key !== undefined) conditions.push(keyCondition(ctx, scope, key));
  if (byId !== undefined) conditions.push(`${scope.alias}."id" = ${ctx.params.add(byId)}::integer`);
  const inner = collectionSql(ctx, { scope, options, conditions });
  return `SELECT coalesce(json_agg(r), '[]'::json)::text AS d FROM (${inner}) r`;
};

// GET /v7/<resource>/$count
export const countOnlySql = (
  ctx: CompileContext,
  resource: Resource,
  options: ODataOptions,
  key: KeyReference | undefined,
): string => {
  checkOptions(options);
  const scope: RowScope = { alias: ctx.nextAlias(), resource };
  const conditions = [readFilter(ctx, scope)];
  if (key !== undefined) conditions.push(keyCondition(ctx, scope, key));
  if (options.$filter !== undefined) conditions.push(compileFilter(ctx, scope, options.$filter));
  return `SELECT count(*) AS n FROM ${fromClause(scope)} WHERE ${conditions.join(' AND ')}`;
};
