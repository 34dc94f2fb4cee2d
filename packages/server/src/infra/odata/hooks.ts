import type { Actor } from '../auth/actor.js';
import type { Queryable, SqlValue } from '../db/database.js';
import type { Resource } from '../../model/model-types.js';

// Where a request came from (absent for writes the server makes on its own).
export type RequestOrigin = { address: string; userAgent: string | null; requestId: string };

export type WriteContext = {
  tx: Queryable;
  actor: Actor;
  resource: string;
  now: Date;
  origin?: RequestOrigin;
};

// One row a write changed, whole (column -> value as PostgreSQL's to_jsonb gives it): `before`
// is null for a created row, `after` for a deleted one.
export type RowChange = {
  id: number;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

// Sees every row a /v7 write changed, in the write's transaction, after the write (the audit
// log); throwing rolls the write back. `written` lists the columns the request set.
export type WriteObserver = (
  ctx: WriteContext,
  resource: Resource,
  operation: 'create' | 'update' | 'delete',
  changes: readonly RowChange[],
  written: readonly string[],
) => Promise<void>;

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
  observe(observer: WriteObserver): void;
  observers(): readonly WriteObserver[];
  // For the test that lists what is registered (no silent side-effect registration).
  registered(): readonly string[];
};

export const createHookRegistry = (): HookRegistry => {
  const byResource = new Map<string, ResourceHooks[]>();
  const observers: WriteObserver[] = [];
  return {
    observe: (observer) => {
      observers.push(observer);
    },
    observers: () => observers,
    add(resource, hooks) {
      const list = byResource.get(resource) ?? [];
      list.push(hooks);
      byResource.set(resource, list);
    },
    of: (resource) => byResource.get(resource) ?? [],
    registered: () => [...byResource.keys()].sort(),
  };
};
