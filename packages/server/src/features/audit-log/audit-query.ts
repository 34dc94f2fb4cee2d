import type { AuditEntry, AuditFilter } from '@flotilla/shared/audit-log/audit-entry';
import type { Queryable, SqlValue } from '../../infra/db/database.js';

// A page of the log (newest first), of one organization or (null) of the whole platform.
export type AuditScope = { organizationId: number | null };

type EntryRow = {
  id: number;
  occurred_at: string;
  action: string;
  resource: string;
  resource_id: number | null;
  organization: number | null;
  application: number | null;
  device: number | null;
  actor_kind: AuditEntry['actor']['kind'];
  actor_via: string | null;
  actor_user: number | null;
  actor_username: string | null;
  actor_application: number | null;
  actor_device: number | null;
  impersonated_by: number | null;
  impersonator_username: string | null;
  changes: Record<string, unknown>;
  address: string | null;
  user_agent: string | null;
  request_id: string | null;
};

export const entryOf = (row: EntryRow): AuditEntry => ({
  id: row.id,
  occurredAt: row.occurred_at,
  action: row.action,
  resource: row.resource,
  resourceId: row.resource_id,
  organizationId: row.organization,
  fleetId: row.application,
  deviceId: row.device,
  actor: {
    kind: row.actor_kind,
    via: row.actor_via,
    userId: row.actor_user,
    username: row.actor_username,
    fleetId: row.actor_application,
    deviceId: row.actor_device,
    impersonatedBy: row.impersonated_by,
    impersonatedByUsername: row.impersonator_username,
  },
  changes: row.changes,
  address: row.address,
  userAgent: row.user_agent,
  requestId: row.request_id,
});

// The statement and its values for the filtered log, newest first, at most `limit` rows.
export const auditSelect = (
  scope: AuditScope,
  filter: Omit<AuditFilter, 'limit'>,
  limit: number,
): { text: string; values: SqlValue[] } => {
  const values: SqlValue[] = [];
  const where: string[] = [];
  const add = (condition: (param: string) => string, value: SqlValue): void => {
    values.push(value);
    where.push(condition(`$${values.length}`));
  };
  if (scope.organizationId !== null) add((v) => `e."organization" = ${v}`, scope.organizationId);
  if (filter.user !== undefined) add((v) => `e."actor_user" = ${v}`, filter.user);
  if (filter.fleet !== undefined) add((v) => `e."application" = ${v}`, filter.fleet);
  if (filter.device !== undefined) add((v) => `e."device" = ${v}`, filter.device);
  // Names resolve to ids through the unique indexes (username, slug, uuid); a fleet's name is not
  // unique, so every fleet of that name counts. The organization's scope above still applies.
  if (filter.username !== undefined) {
    add(
      (v) => `e."actor_user" IN (SELECT "id" FROM "user" WHERE "username" = ${v})`,
      filter.username,
    );
  }
  if (filter.fleetName !== undefined) {
    add(
      (v) =>
        `e."application" IN (SELECT "id" FROM "application" WHERE "slug" = lower(${v}) OR "app_name" = ${v})`,
      filter.fleetName,
    );
  }
  if (filter.deviceUuid !== undefined) {
    // A prefix as a range, so the uuid index answers it ("g" sorts after every hex digit).
    add(
      (v) =>
        `e."device" IN (SELECT "id" FROM "device" WHERE "uuid" >= ${v} AND "uuid" < ${v} || 'g')`,
      filter.deviceUuid,
    );
  }
  if (filter.resource !== undefined) add((v) => `e."resource" = ${v}`, filter.resource);
  if (filter.from !== undefined) add((v) => `e."occurred_at" >= ${v}`, filter.from);
  if (filter.to !== undefined) add((v) => `e."occurred_at" < ${v}`, filter.to);
  if (filter.before !== undefined) add((v) => `e."id" < ${v}`, filter.before);
  values.push(limit);
  const text = `SELECT e."id", to_char(e."occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurred_at",
       e."action", e."resource", e."resource_id", e."organization", e."application", e."device",
       e."actor_kind", e."actor_via", e."actor_user", u."username" AS "actor_username",
       e."actor_application", e."actor_device", e."impersonated_by", a."username" AS "impersonator_username",
       e."changes", e."address", e."user_agent", e."request_id"
  FROM "audit_log_entry" e
  LEFT JOIN "user" u ON u."id" = e."actor_user"
  LEFT JOIN "user" a ON a."id" = e."impersonated_by"
 ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
 ORDER BY e."id" DESC LIMIT $${values.length}`;
  return { text, values };
};

export const readAuditPage = async (
  db: Queryable,
  scope: AuditScope,
  filter: AuditFilter,
): Promise<{ entries: AuditEntry[]; nextBefore: number | null }> => {
  const { text, values } = auditSelect(scope, filter, filter.limit + 1);
  const { rows } = await db.query<EntryRow>(text, values);
  const entries = rows.slice(0, filter.limit).map(entryOf);
  const last = entries.at(-1);
  return { entries, nextBefore: rows.length > filter.limit && last ? last.id : null };
};

export type { EntryRow };
