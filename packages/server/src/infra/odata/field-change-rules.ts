import { fieldPermissionOf, permissionParts } from '@flotilla/shared/permissions/field-permissions';
import type { Field, ScalarType } from '../../model/model-types.js';
import type { SqlValue } from '../db/database.js';
import { type CompileContext, fromClause, resourceOf, type RowScope } from './compile-context.js';
import { quoteIdentifier } from './sql-params.js';

const sqlTypes: Record<ScalarType, string> = {
  integer: 'integer',
  bigint: 'bigint',
  real: 'double precision',
  text: 'text',
  boolean: 'boolean',
  date: 'timestamptz',
  json: 'jsonb',
};

// SQL true when the row may hold `value` in `field` after the write: it holds it already, or the
// actor has the field's permission (shared field-permissions table) on the row, or on the row
// `via` points at. Undefined when the field has no rule.
const fieldCondition = (
  ctx: CompileContext,
  scope: RowScope,
  field: Field,
  value: SqlValue,
): string | undefined => {
  const rule = fieldPermissionOf(scope.resource.name, field.column);
  if (!rule) return undefined;
  const { resource, action } = permissionParts(rule.permission);
  // Field rules apply to updates, which already need `update` on the row.
  if (
    resource === scope.resource.name &&
    action === 'update' &&
    rule.via === undefined &&
    rule.targetRoles === undefined
  ) {
    return undefined;
  }
  const column = `${scope.alias}.${quoteIdentifier(field.column)}`;
  const unchanged = `${column} IS NOT DISTINCT FROM ${ctx.params.add(value)}::${sqlTypes[field.type]}`;
  let held: string;
  if (rule.via === undefined) {
    if (resource !== scope.resource.name) {
      throw new Error(
        `${rule.permission} guards ${scope.resource.name}.${field.column} without via`,
      );
    }
    held = ctx.permission(scope.resource, action, scope.alias) ?? 'false';
  } else {
    const via = scope.resource.fields.get(rule.via);
    if (via?.references === undefined || resourceOf(ctx.model, via.references).name !== resource) {
      throw new Error(`${scope.resource.name}.${rule.via} does not lead to ${resource}`);
    }
    const target: RowScope = { alias: ctx.nextAlias(), resource: resourceOf(ctx.model, resource) };
    const permitted = ctx.permission(target.resource, action, target.alias);
    held =
      permitted === null
        ? 'false'
        : `EXISTS (SELECT 1 FROM ${fromClause(target)} WHERE ${target.alias}."id" = ${scope.alias}.${quoteIdentifier(via.column)} AND ${permitted})`;
  }
  if (rule.targetRoles !== undefined) {
    if (field.references === undefined || field.type !== 'integer') {
      throw new Error(`${scope.resource.name}.${field.column} names no row to hold roles on`);
    }
    const target = `${ctx.params.add(value)}::integer`;
    held = `(${held} AND ${ctx.holdsFleetRole(target, rule.targetRoles)})`;
  }
  return `(${unchanged} OR ${held})`;
};

// The conjunction of the field rules the written values touch, or 'true' when none applies.
export const fieldChangeConditions = (
  ctx: CompileContext,
  scope: RowScope,
  values: ReadonlyMap<string, { field: Field; value: SqlValue }>,
): string => {
  const conditions = [...values.values()]
    .map(({ field, value }) => fieldCondition(ctx, scope, field, value))
    .filter((condition) => condition !== undefined);
  return conditions.length === 0 ? 'true' : conditions.join(' AND ');
};
