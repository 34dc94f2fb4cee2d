import type { BindKey } from '@balena/odata-parser';
import type { Model } from '../../model/model-types.js';
import type { Actor } from '../auth/actor.js';
import { badRequest, forbidden } from '../errors/api-error.js';
import { createCompileContext, resourceOf } from './compile-context.js';
import { countOnlySql, readSql } from './compile-read.js';
import { type ODataRequest, parseODataRequest } from './parse-request.js';
import { createSqlParams, type SqlParams } from './sql-params.js';

// GET /v7/...: one statement answering `{"d": ...}`, either the rows as JSON text (column d) or,
// for $count, the number (column n).
export type CompiledGet = {
  sql: string;
  count: boolean;
  params: SqlParams;
  // Literals the SQL text depends on (CompileContext.pin).
  pinned: readonly BindKey[];
  parsed: ODataRequest;
};

// Parses and compiles the part of a /v7 URL after the prefix for this caller.
export const compileGet = (model: Model, path: string, actor: Actor): CompiledGet => {
  const parsed = parseODataRequest(path);
  if (parsed.action) throw badRequest(`Unknown path segment '${parsed.action}'`);
  const resource = resourceOf(model, parsed.resource);
  const params = createSqlParams(actor, parsed.binds);
  const compile = createCompileContext(model, params);
  if (compile.permission(resource, 'read', '"x"') === null) throw forbidden();
  const sql = parsed.count
    ? countOnlySql(compile, resource, parsed.options, parsed.key)
    : readSql(compile, resource, parsed.options, parsed.key);
  return { sql, count: parsed.count, params, pinned: compile.pinned(), parsed };
};
