import type { Actor } from '../../infra/auth/actor.js';
import type { Queryable, SqlValue } from '../../infra/db/database.js';
import { resourceOf } from '../../infra/odata/compile-context.js';
import { createPermissionFilter } from '../../infra/odata/permissions.js';
import { createSqlParams } from '../../infra/odata/sql-params.js';
import type { Model } from '../../model/model-types.js';

// One event as the stream sends it: its place in the stream (the SSE id) and the envelope
// webhooks deliver.
export type StreamedEvent = {
  position: string;
  id: string;
  type: string;
  version: number;
  occurredAt: string;
  organization: number;
  fleet: number | null;
  device: number | null;
  data: Record<string, unknown>;
};

// What one caller may see, compiled once per connection with the /v7 permission filters: an
// event of a fleet to whoever may read that fleet (and so its devices), an event of the
// organization itself (a membership) to whoever may manage its webhooks, its administrators.
export type PermittedReads = {
  // Permitted events after a position, in stream order, at most `limit`.
  after(db: Queryable, position: string, limit: number): Promise<StreamedEvent[]>;
};

const columns = `e."stream_position"::text AS "position", e."event_uuid" AS "id", e."type",
  e."version", to_char(e."occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt",
  e."organization", e."fleet", e."device", e."data"`;

export const permittedReads = (model: Model, actor: Actor): PermittedReads | undefined => {
  const params = createSqlParams(actor);
  const filter = createPermissionFilter(params);
  const fleet = filter(resourceOf(model, 'application'), 'read', '"a"');
  const organization = filter(resourceOf(model, 'organization'), 'manage_webhooks', '"o"');
  if (fleet === null && organization === null) return undefined;
  const conditions = [
    fleet === null
      ? null
      : `(e."fleet" IS NOT NULL AND EXISTS (SELECT 1 FROM "application" "a" WHERE "a"."id" = e."fleet" AND ${fleet}))`,
    organization === null
      ? null
      : `(e."fleet" IS NULL AND EXISTS (SELECT 1 FROM "organization" "o" WHERE "o"."id" = e."organization" AND ${organization}))`,
  ].filter((condition) => condition !== null);
  const base = params.values();
  const text = `SELECT ${columns} FROM "event_outbox" e
    WHERE e."stream_position" > $${base.length + 1}::bigint AND (${conditions.join(' OR ')})
    ORDER BY e."stream_position" LIMIT $${base.length + 2}::int`;
  return {
    after: async (db, position, limit) => {
      const values: SqlValue[] = [...base, position, limit];
      return (await db.query<StreamedEvent>(text, values)).rows;
    },
  };
};

// The newest position of the stream (what a client that starts afresh or is reset resumes from).
export const latestPosition = async (db: Queryable): Promise<string> => {
  const { rows } = await db.query<{ position: string }>(
    `SELECT coalesce(max("stream_position"), 0)::text AS "position" FROM "event_outbox"`,
  );
  return rows[0]?.position ?? '0';
};

// Whether a client resuming after `position` can be given everything it missed: the position
// is one this stream gave and its event is still kept (events are deleted after 30 days), and
// the first event after it is within the replay window (a long absence is told to refetch).
export const replayable = async (
  db: Queryable,
  position: string,
  oldest: Date,
): Promise<boolean> => {
  const { rows } = await db.query<{ ok: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM "event_outbox" WHERE "stream_position" = $1::bigint)
        AND coalesce((SELECT "fanned_out_at" >= $2 FROM "event_outbox"
                       WHERE "stream_position" > $1::bigint
                       ORDER BY "stream_position" LIMIT 1), true) AS "ok"`,
    [position, oldest],
  );
  return rows[0]?.ok ?? false;
};
