import type { Model } from '../../model/model-types.js';
import type { Actor } from '../auth/actor.js';
import type { Queryable } from '../db/database.js';
import { badRequest } from '../errors/api-error.js';
import { createCompileContext, resourceOf } from './compile-context.js';
import { createRow, updateRows } from './execute-write.js';
import type { HookRegistry } from './hooks.js';
import { parseODataRequest } from './parse-request.js';
import { createSqlParams } from './sql-params.js';

// /v7 writes made by the server on a caller's behalf (the builder creating a release): the same
// permission checks, field rules and hooks as the caller's own requests, inside `tx`.
export type ActorWriter = {
  create(resource: string, body: Record<string, unknown>): Promise<number>;
  update(resource: string, id: number, body: Record<string, unknown>): Promise<void>;
};

export type ActorWriteDeps = { model: Model; hooks: HookRegistry; now: () => Date };

export const createActorWriter = (
  deps: ActorWriteDeps,
  tx: Queryable,
  actor: Actor,
): ActorWriter => {
  const writeDeps = (resource: string, binds: ReturnType<typeof parseODataRequest>['binds']) => ({
    tx,
    hooks: deps.hooks,
    writeContext: { tx, actor, resource, now: deps.now() },
    makeContext: () => createCompileContext(deps.model, createSqlParams(actor, binds)),
  });
  return {
    async create(name, body) {
      const resource = resourceOf(deps.model, name);
      return await createRow(
        writeDeps(resource.name, parseODataRequest(`/${name}`).binds),
        resource,
        body,
      );
    },
    async update(name, id, body) {
      if (!Number.isSafeInteger(id)) throw badRequest(`Invalid id ${id}`);
      const parsed = parseODataRequest(`/${name}(${id})`);
      const resource = resourceOf(deps.model, parsed.resource);
      const updated = await updateRows(
        writeDeps(resource.name, parsed.binds),
        { resource, key: parsed.key, options: {} },
        body,
      );
      if (updated.length !== 1) throw new Error(`${name}(${id}) was not updated`);
    },
  };
};
