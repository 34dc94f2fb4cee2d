import type { ODataOptions } from '@balena/odata-parser';
import type { Resource } from '../../model/model-types.js';
import type { Queryable } from '../db/database.js';
import { forbidden } from '../errors/api-error.js';
import {
  type CompileContext,
  fromClause,
  readFilter,
  resourceOf,
  type RowScope,
} from './compile-context.js';
import { compileFilter } from './compile-filter.js';
import { keyCondition } from './compile-read.js';
import type { HookRegistry, RowChange, Values, WriteContext } from './hooks.js';
import type { KeyReference } from './parse-request.js';
import { quoteIdentifier } from './sql-params.js';
import { fieldChangeConditions } from './field-change-rules.js';
import { keyWritableFields } from './permissions.js';
import { assertFieldsAllowed, writableValues } from './write-values.js';

export type WriteTarget = {
  resource: Resource;
  key: KeyReference | undefined;
  options: ODataOptions;
};

const requirePermission = (ctx: CompileContext, scope: RowScope, action: string): string => {
  const filter = ctx.permission(scope.resource, action, scope.alias);
  if (filter === null) throw forbidden();
  return filter;
};

const targetConditions = (ctx: CompileContext, scope: RowScope, target: WriteTarget): string[] => {
  const conditions: string[] = [];
  if (target.key !== undefined) conditions.push(keyCondition(ctx, scope, target.key));
  if (target.options.$filter !== undefined) {
    conditions.push(compileFilter(ctx, scope, target.options.$filter));
  }
  return conditions;
};

type WrittenValues = ReturnType<typeof writableValues>;

const plainValues = (values: WrittenValues): Values =>
  Object.fromEntries([...values].map(([column, { value }]) => [column, value]));

// The rows a bulk or keyed write may touch: those matching the target that the actor may act on
// and, for an update, whose fields with a change rule it may change to the new values. Rows the
// actor can see but may not change make the whole request a 401 (nothing is written).
const permittedIds = async (
  tx: Queryable,
  ctx: CompileContext,
  target: WriteTarget,
  action: string,
  values: WrittenValues = new Map(),
): Promise<number[]> => {
  const scope: RowScope = { alias: ctx.nextAlias(), resource: target.resource };
  const permitted = requirePermission(ctx, scope, action);
  const fieldsPermitted = fieldChangeConditions(ctx, scope, values);
  const conditions = targetConditions(ctx, scope, target);
  const visible = readFilter(ctx, scope);
  const where = conditions.length > 0 ? `${conditions.join(' AND ')} AND ` : '';
  const { rows } = await tx.query<{ id: number; permitted: boolean }>(
    `SELECT ${scope.alias}."id" AS id, coalesce(${permitted} AND ${fieldsPermitted}, false) AS permitted FROM ${fromClause(scope)} WHERE ${where}(${visible} OR ${permitted}) ORDER BY ${scope.alias}."id" FOR UPDATE OF ${scope.alias}`,
    ctx.params.values(),
  );
  if (rows.some((row) => !row.permitted)) throw forbidden();
  return rows.map((row) => row.id);
};

// After a write, every written row must still be one the actor may act on (a device moved to a
// fleet the caller cannot manage, a row pointing at an invisible parent): otherwise roll back.
const assertStillPermitted = async (
  tx: Queryable,
  makeContext: () => CompileContext,
  resource: Resource,
  ids: readonly number[],
  action: string,
): Promise<void> => {
  if (ids.length === 0) return;
  const ctx = makeContext();
  const scope: RowScope = { alias: ctx.nextAlias(), resource };
  const permitted = requirePermission(ctx, scope, action);
  const idsParam = ctx.params.add([...ids]);
  const { rows } = await tx.query<{ n: number }>(
    `SELECT count(*) AS n FROM ${fromClause(scope)} WHERE ${scope.alias}."id" = ANY(${idsParam}::integer[]) AND ${permitted}`,
    ctx.params.values(),
  );
  if (rows[0]?.n !== ids.length) throw forbidden();
};

// Every foreign key a client sets must point at a row it may read: checked before writing, so a
// conflict (409) can never reveal that someone else's row exists.
const assertReferencesVisible = async (
  tx: Queryable,
  makeContext: () => CompileContext,
  values: WrittenValues,
): Promise<void> => {
  for (const { field, value } of values.values()) {
    // Users are addressed to be added as members before they share anything with the caller,
    // so a user reference is exempt (it reveals nothing: the row written stays permission-checked).
    // So is an invitee, which the invitation hooks resolve from the address the caller typed
    // (they refuse an invitee given by id).
    if (
      !field.references ||
      field.references === 'user' ||
      field.references === 'invitee' ||
      value === null
    ) {
      continue;
    }
    const ctx = makeContext();
    const target = resourceOf(ctx.model, field.references);
    const scope: RowScope = { alias: ctx.nextAlias(), resource: target };
    const idParam = ctx.params.add(value);
    const { rowCount } = await tx.query(
      `SELECT 1 FROM ${fromClause(scope)} WHERE ${scope.alias}."id" = ${idParam}::integer AND ${readFilter(ctx, scope)}`,
      ctx.params.values(),
    );
    if (rowCount === 0) throw forbidden();
  }
};

type ObservedRow = RowChange;

// Hands the changed rows to the write observers (the audit log), in the write's transaction.
const observe = async (
  deps: WriteDeps,
  resource: Resource,
  operation: 'create' | 'update' | 'delete',
  changes: readonly RowChange[],
  written: readonly string[],
): Promise<void> => {
  if (changes.length === 0) return;
  for (const observer of deps.hooks.observers()) {
    await observer(deps.writeContext, resource, operation, changes, written);
  }
};

type WriteDeps = {
  tx: Queryable;
  hooks: HookRegistry;
  writeContext: WriteContext;
  // A fresh compile context per statement (each has its own parameter list).
  makeContext: () => CompileContext;
};

export const createRow = async (
  deps: WriteDeps,
  resource: Resource,
  body: unknown,
): Promise<number> => {
  const ctx = deps.makeContext();
  requirePermission(ctx, { alias: '"x"', resource }, 'create');
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const editable = body as Record<string, unknown>;
    for (const hooks of deps.hooks.of(resource.name)) {
      await hooks.prepareCreate?.(deps.writeContext, editable);
    }
  }
  const validated = writableValues(resource, body, 'create');
  assertFieldsAllowed(
    resource,
    validated,
    keyWritableFields(deps.writeContext.actor, resource.name, 'create'),
  );
  await assertReferencesVisible(deps.tx, deps.makeContext, validated);
  const values = plainValues(validated);
  for (const hooks of deps.hooks.of(resource.name))
    await hooks.beforeCreate?.(deps.writeContext, values);
  const columns = Object.keys(values);
  const params = columns.map((column) => values[column] ?? null);
  const placeholders = columns.map((column, index) => {
    const field = resource.fields.get(column);
    return field?.type === 'json' ? `$${index + 1}::jsonb` : `$${index + 1}`;
  });
  const observed = deps.hooks.observers().length > 0;
  const table = `${quoteIdentifier(resource.name)} AS "t"`;
  const returning = observed ? 'RETURNING "t"."id", to_jsonb("t") AS "row"' : 'RETURNING "t"."id"';
  const sql =
    columns.length === 0
      ? `INSERT INTO ${table} DEFAULT VALUES ${returning}`
      : `INSERT INTO ${table} (${columns.map(quoteIdentifier).join(', ')}) VALUES (${placeholders.join(', ')}) ${returning}`;
  const { rows } = await deps.tx.query<{ id: number; row?: Record<string, unknown> }>(sql, params);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('INSERT returned no id');
  await observe(
    deps,
    resource,
    'create',
    [{ id, before: null, after: rows[0]?.row ?? null }],
    columns,
  );
  for (const hooks of deps.hooks.of(resource.name))
    await hooks.afterCreate?.(deps.writeContext, id, values);
  await assertStillPermitted(deps.tx, deps.makeContext, resource, [id], 'create');
  return id;
};

export const updateRows = async (
  deps: WriteDeps,
  target: WriteTarget,
  body: unknown,
): Promise<number[]> => {
  const resource = target.resource;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const editable = body as Record<string, unknown>;
    for (const hooks of deps.hooks.of(resource.name)) {
      await hooks.prepareUpdate?.(deps.writeContext, editable);
    }
  }
  const validated = writableValues(resource, body, 'update');
  assertFieldsAllowed(
    resource,
    validated,
    keyWritableFields(deps.writeContext.actor, resource.name, 'update'),
  );
  const ids = await permittedIds(deps.tx, deps.makeContext(), target, 'update', validated);
  if (ids.length === 0) return ids;
  await assertReferencesVisible(deps.tx, deps.makeContext, validated);
  const values = plainValues(validated);
  for (const hooks of deps.hooks.of(resource.name))
    await hooks.beforeUpdate?.(deps.writeContext, ids, values);
  const columns = Object.keys(values);
  if (columns.length > 0 || resource.fields.has('modified_at')) {
    const assignments = columns.map((column, index) => {
      const field = resource.fields.get(column);
      return `${quoteIdentifier(column)} = $${index + 2}${field?.type === 'json' ? '::jsonb' : ''}`;
    });
    if (resource.fields.has('modified_at')) assignments.push('"modified_at" = now()');
    const table = quoteIdentifier(resource.name);
    const params = [ids, ...columns.map((column) => values[column] ?? null)];
    if (deps.hooks.observers().length === 0) {
      await deps.tx.query(
        `UPDATE ${table} SET ${assignments.join(', ')} WHERE "id" = ANY($1::integer[])`,
        params,
      );
    } else {
      // The rows as they were come from a subquery over the same (already locked) rows: one
      // statement gives both sides of each change.
      const { rows } = await deps.tx.query<ObservedRow>(
        `UPDATE ${table} AS "t" SET ${assignments.join(', ')}
           FROM (SELECT * FROM ${table} WHERE "id" = ANY($1::integer[])) AS "o"
          WHERE "t"."id" = "o"."id"
          RETURNING "t"."id", to_jsonb("o") AS "before", to_jsonb("t") AS "after"`,
        params,
      );
      await observe(deps, resource, 'update', rows, columns);
    }
  }
  for (const hooks of deps.hooks.of(resource.name))
    await hooks.afterUpdate?.(deps.writeContext, ids, values);
  await assertStillPermitted(deps.tx, deps.makeContext, resource, ids, 'update');
  return ids;
};

export const deleteRows = async (deps: WriteDeps, target: WriteTarget): Promise<number[]> => {
  const ids = await permittedIds(deps.tx, deps.makeContext(), target, 'delete');
  if (ids.length === 0) return ids;
  for (const hooks of deps.hooks.of(target.resource.name))
    await hooks.beforeDelete?.(deps.writeContext, ids);
  if (deps.hooks.observers().length === 0) {
    await deps.tx.query(
      `DELETE FROM ${quoteIdentifier(target.resource.name)} WHERE "id" = ANY($1::integer[])`,
      [ids],
    );
    return ids;
  }
  const { rows } = await deps.tx.query<ObservedRow>(
    `DELETE FROM ${quoteIdentifier(target.resource.name)} AS "t" WHERE "t"."id" = ANY($1::integer[])
      RETURNING "t"."id", to_jsonb("t") AS "before", NULL::jsonb AS "after"`,
    [ids],
  );
  await observe(deps, target.resource, 'delete', rows, []);
  return ids;
};
