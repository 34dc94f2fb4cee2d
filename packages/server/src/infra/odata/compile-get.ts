import type { BindKey, ODataOptions } from '@balena/odata-parser';
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
  // A count, or unpaged rows with `$count` expansions only (the console's counts): its plan
  // hardly depends on its values (no page to stop early for), so one generic plan serves every
  // request of its shape.
  countsOnly: boolean;
};

const countsOnly = (options: ODataOptions): boolean => {
  const expanded = options.$expand?.properties ?? [];
  return (
    options.$top === undefined &&
    options.$skip === undefined &&
    expanded.length > 0 &&
    expanded.every((item) => item.count === true)
  );
};

// Parses and compiles the part of a /v7 URL after the prefix for this caller.
// `repeatedCounts`: CompileContext.repeatedCounts.
export const compileGet = (
  model: Model,
  path: string,
  actor: Actor,
  repeatedCounts = false,
): CompiledGet => {
  const parsed = parseODataRequest(path);
  if (parsed.action) throw badRequest(`Unknown path segment '${parsed.action}'`);
  const resource = resourceOf(model, parsed.resource);
  const params = createSqlParams(actor, parsed.binds);
  const compile = createCompileContext(model, params, repeatedCounts);
  if (compile.permission(resource, 'read', '"x"') === null) throw forbidden();
  const sql = parsed.count
    ? countOnlySql(compile, resource, parsed.options, parsed.key)
    : readSql(compile, resource, parsed.options, parsed.key);
  return {
    sql,
    count: parsed.count,
    params,
    pinned: compile.pinned(),
    parsed,
    countsOnly: parsed.count || countsOnly(parsed.options),
  };
};
