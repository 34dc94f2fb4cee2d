import type { Actor } from '../../infra/auth/actor.js';
import type { Queryable, SqlValue } from '../../infra/db/database.js';
import type { RequestOrigin, WriteObserver } from '../../infra/odata/hooks.js';
import { quoteIdentifier } from '../../infra/odata/sql-params.js';
import type { Resource } from '../../model/model-types.js';
import { fieldChanges } from './audit-changes.js';

// A user known by id only (the one a login signs in, a terminal session's user).
export type AuditUser = {
  kind: 'user-id';
  userId: number;
  via: string | null;
  actualUserId?: number | undefined;
};

// Who did it, as the audit_log_entry columns hold it.
const actorValues = (actor: Actor | AuditUser): SqlValue[] => {
  switch (actor.kind) {
    case 'user-id':
      return ['user', actor.via, actor.userId, null, null, actor.actualUserId ?? null];
    case 'user': {
      const via = actor.oauthAuthorizationId === undefined ? actor.via : 'oauth';
      return ['user', via, actor.userId, null, null, actor.actualUserId ?? null];
    }
    case 'application':
      return ['application', null, null, actor.applicationId, null, null];
    case 'device':
      return ['device', null, null, actor.applicationId, actor.deviceId, null];
    case 'anonymous':
      return ['anonymous', null, null, null, null, null];
  }
};

const originValues = (origin: RequestOrigin | undefined): SqlValue[] => [
  origin?.address ?? null,
  origin?.userAgent?.slice(0, 500) ?? null,
  origin?.requestId ?? null,
];

// The columns after (occurred_at, action, resource): actor, origin, then the row's place.
const commonColumns = `"actor_kind", "actor_via", "actor_user", "actor_application", "actor_device",
  "impersonated_by", "address", "user_agent", "request_id"`;

// SQL of where a row belongs (organization, fleet, device), over its alias, from its resource's
// permission scope: the same relations that decide who may read it.
const placeSql = (resource: Resource, row: string): string => {
  const application = resource.scope?.application?.(row) ?? 'NULL';
  const organization =
    resource.scope?.organization?.(row) ??
    (application === 'NULL'
      ? 'NULL'
      : `(SELECT "organization" FROM "application" WHERE "id" = ${application})`);
  const device = resource.scope?.device?.(row) ?? 'NULL';
  return `${organization}, ${application}, ${device}`;
};

// The write observer: one INSERT per /v7 statement, in its transaction, for every row it changed.
// Where each row belongs is computed from the row itself (rebuilt from its JSON, so a deleted row
// is placed as it was).
export const recordWriteChanges: WriteObserver = async (
  ctx,
  resource,
  operation,
  changes,
  written,
) => {
  const records = changes.map((change) => ({
    id: change.id,
    row: change.after ?? change.before,
    changes: fieldChanges(resource, operation, change, written),
  }));
  const params = [
    ctx.now,
    operation,
    resource.name,
    ...actorValues(ctx.actor),
    ...originValues(ctx.origin),
    JSON.stringify(records),
  ];
  await ctx.tx.query(
    `INSERT INTO "audit_log_entry" ("occurred_at", "action", "resource", ${commonColumns},
            "resource_id", "organization", "application", "device", "changes")
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, (c."value"->>'id')::bigint,
            ${placeSql(resource, '"r"')}, c."value"->'changes'
       FROM jsonb_array_elements($13::jsonb) AS c
      CROSS JOIN LATERAL jsonb_populate_record(NULL::${quoteIdentifier(resource.name)}, c."value"->'row') AS "r"`,
    params,
  );
};

export type AuditEventRecord = {
  action: string;
  resource: string;
  resourceId?: number | null;
  organizationId?: number | null;
  fleetId?: number | null;
  deviceId?: number | null;
  // A device named by its UUID (a route's parameter), when its id is not known.
  deviceUuid?: string | null;
  actor: Actor | AuditUser;
  origin?: RequestOrigin | undefined;
  // What the event carries besides who and where (never a secret).
  details?: Record<string, unknown>;
  now: Date;
};

// Records an event that is not a /v7 write (a login, a device action, a terminal session, a key
// minted by its own route). Give it the change's transaction so both commit or neither does.
export const recordAuditEvent = async (db: Queryable, event: AuditEventRecord): Promise<void> => {
  const fleet = event.fleetId ?? null;
  await db.query(
    `INSERT INTO "audit_log_entry" ("occurred_at", "action", "resource", ${commonColumns},
            "resource_id", "organization", "application", "device", "changes")
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
            coalesce($14::integer, (SELECT "organization" FROM "application" WHERE "id" = f."id")),
            f."id", d."id", $17::jsonb
       FROM (SELECT coalesce($16::integer,
              (SELECT "id" FROM "device" WHERE "uuid" = $18::text)) AS "id") AS d
      CROSS JOIN LATERAL (SELECT coalesce($15::integer,
              (SELECT "belongs_to__application" FROM "device" WHERE "id" = d."id")) AS "id") AS f`,
    [
      event.now,
      event.action,
      event.resource,
      ...actorValues(event.actor),
      ...originValues(event.origin),
      event.resourceId ?? null,
      event.organizationId ?? null,
      fleet,
      event.deviceId ?? null,
      JSON.stringify(event.details ?? {}),
      event.deviceUuid ?? null,
    ],
  );
};
