import type { Actor } from '../auth/actor.js';
import type { Queryable, SqlValue } from '../db/database.js';

export type WriteContext = {
  tx: Queryable;
  actor: Actor;
  resource: string;
  now: Date;
};

// Column -> value of the row being written; hooks may fill in or adjust values.
export type Values = Record<string, SqlValue>;

// Business rules around /v7 writes (slug generation, creator memberships, track-latest...).
// Hooks run inside the write's transaction; throwing an ApiError rolls the whole write back.
export type ResourceHooks = {
  // Rewrites a POST body before it is validated (write-only conveniences such as `username`).
  prepareCreate?: (ctx: WriteContext, body: Record<string, unknown>) => Promise<void>;
  // The same for a PATCH body (e.g. a file sent as multipart, stored before the update).
  prepareUpdate?: (ctx: WriteContext, body: Record<string, unknown>) => Promise<void>;
  beforeCreate?: (ctx: WriteContext, values: Values) => Promise<void>;
  afterCreate?: (ctx: WriteContext, id: number, values: Values) => Promise<void>;
  beforeUpdate?: (ctx: WriteContext, ids: readonly number[], values: Values) => Promise<void>;
  afterUpdate?: (ctx: WriteContext, ids: readonly number[], values: Values) => Promise<void>;
  beforeDelete?: (ctx: WriteContext, ids: readonly number[]) => Promise<void>;
  // POST /v7/<resource>(<id>)/<action> (e.g. release_asset's beginUpload): runs in the write's
  // transaction once the engine has checked that the caller may update row `id`; its result is
  // the answer's JSON body.
  actions?: Record<string, (ctx: WriteContext, id: number, body: unknown) => Promise<unknown>>;
};

export type HookRegistry = {
  add(resource: string, hooks: ResourceHooks): void;
  of(resource: string): readonly ResourceHooks[];
  // For the test that lists what is registered (no silent side-effect registration).
  registered(): readonly string[];
};

export const createHookRegistry = (): HookRegistry => {
  const byResource = new Map<string, ResourceHooks[]>();
  return {
    add(resource, hooks) {
      const list = byResource.get(resource) ?? [];
      list.push(hooks);
      byResource.set(resource, list);
    },
    of: (resource) => byResource.get(resource) ?? [],
    registered: () => [...byResource.keys()].sort(),
  };
};
