import type { BindKey, BindReference } from '@balena/odata-parser';
import type { Model, Resource } from '../../model/model-types.js';
import { badRequest } from '../errors/api-error.js';
import { bindValue } from './odata-values.js';
import {
  createFleetRoleCondition,
  createOwnRowCondition,
  createPermissionFilter,
  type FleetRoleCondition,
  type OwnRowCondition,
  type PermissionFilter,
} from './permissions.js';
import { type LiteralBind, quoteIdentifier, type SqlParams } from './sql-params.js';

export type RowScope = { alias: string; resource: Resource };

// Everything one statement's compilation shares: parameters, binds, fresh aliases, permissions.
export type CompileContext = {
  model: Model;
  params: SqlParams;
  binds: readonly LiteralBind[];
  permission: PermissionFilter;
  // When owner-only fields show their value (see FieldDefinition.ownerOnly).
  ownRow: OwnRowCondition;
  holdsFleetRole: FleetRoleCondition;
  nextAlias: () => string;
  // The value of a literal the SQL text itself depends on (not only its placeholder): such a
  // literal is part of the compiled statement's key (statement-cache.ts).
  pin: (reference: BindReference) => unknown;
  pinned: () => readonly BindKey[];
  // A batch's counts read together (register-batch-route.ts): a navigation's `$count` may be
  // expanded more than once, its k-th expansion (from 0) answered as `<name>@<k>`.
  repeatedCounts: boolean;
};

// The caller and the URL's literals are those of `params` (createSqlParams).
export const createCompileContext = (
  model: Model,
  params: SqlParams,
  repeatedCounts = false,
): CompileContext => {
  let counter = 0;
  const pinned: BindKey[] = [];
  const binds = params.request.binds;
  return {
    model,
    params,
    binds,
    permission: createPermissionFilter(params),
    ownRow: createOwnRowCondition(params),
    holdsFleetRole: createFleetRoleCondition(params),
    nextAlias: () => quoteIdentifier(`t${counter++}`),
    pin(reference) {
      if (!pinned.includes(reference.bind)) pinned.push(reference.bind);
      return bindValue(binds, reference);
    },
    pinned: () => pinned,
    repeatedCounts,
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
