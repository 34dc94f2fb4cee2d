import type { ODataBinds } from '@balena/odata-parser';
import type { Model, Resource } from '../../model/model-types.js';
import { badRequest } from '../errors/api-error.js';
import type { OwnRowCondition, PermissionFilter } from './permissions.js';
import { quoteIdentifier, type SqlParams } from './sql-params.js';

export type RowScope = { alias: string; resource: Resource };

// Everything one statement's compilation shares: parameters, binds, fresh aliases, permissions.
export type CompileContext = {
  model: Model;
  params: SqlParams;
  binds: ODataBinds;
  permission: PermissionFilter;
  // When owner-only fields show their value (see FieldDefinition.ownerOnly).
  ownRow: OwnRowCondition;
  nextAlias: () => string;
};

export const createCompileContext = (
  model: Model,
  params: SqlParams,
  binds: ODataBinds,
  permission: PermissionFilter,
  ownRow: OwnRowCondition,
): CompileContext => {
  let counter = 0;
  return {
    model,
    params,
    binds,
    permission,
    ownRow,
    nextAlias: () => quoteIdentifier(`t${counter++}`),
  };
};

export const resourceOf = (model: Model, name: string): Resource => {
  const resource = model.resources.get(model.aliases.get(name) ?? name);
  if (!resource) throw badRequest(`Unknown resource '${name}'`);
  return resource;
};

// Nested reads (expands, lambdas, paths, counts) see only rows the actor may read; a resource the
// actor cannot read at all simply yields nothing there.
export const readFilter = (ctx: CompileContext, scope: RowScope): string =>
  ctx.permission(scope.resource, 'read', scope.alias) ?? 'false';

export const fromClause = (scope: RowScope): string =>
  `${quoteIdentifier(scope.resource.name)} ${scope.alias}`;
