import { Readable } from 'node:stream';
import {
  type AuditEntry,
  type AuditExportFormat,
  type AuditFilter,
  auditExportLimit,
} from '@flotilla/shared/audit-log/audit-entry';
import type { Queryable } from '../../infra/db/database.js';
import { type AuditScope, readAuditPage } from './audit-query.js';

// Rows read per statement while streaming: memory stays bounded whatever the export's size.
const exportPageSize = 1000;

const csvColumns = [
  'id',
  'occurred_at',
  'action',
  'resource',
  'resource_id',
  'organization_id',
  'fleet_id',
  'device_id',
  'actor_kind',
  'actor_via',
  'actor_user_id',
  'actor_username',
  'actor_fleet_id',
  'actor_device_id',
  'impersonated_by',
  'impersonated_by_username',
  'address',
  'user_agent',
  'request_id',
  'changes',
] as const;

// A CSV cell: quoted when needed, and a leading formula character defused for spreadsheets.
export const csvCell = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

const csvLine = (entry: AuditEntry): string =>
  [
    entry.id,
    entry.occurredAt,
    entry.action,
    entry.resource,
    entry.resourceId,
    entry.organizationId,
    entry.fleetId,
    entry.deviceId,
    entry.actor.kind,
    entry.actor.via,
    entry.actor.userId,
    entry.actor.username,
    entry.actor.fleetId,
    entry.actor.deviceId,
    entry.actor.impersonatedBy,
    entry.actor.impersonatedByUsername,
    entry.address,
    entry.userAgent,
    entry.requestId,
    entry.changes,
  ]
    .map((value) => (typeof value === 'number' ? String(value) : csvCell(value)))
    .join(',') + '\r\n';

// The filtered log as CSV or NDJSON, newest first, read page by page as the client takes it,
// and never more than auditExportLimit records.
export const auditExportStream = (
  db: Queryable,
  scope: AuditScope,
  filter: AuditFilter,
  format: AuditExportFormat,
): Readable => {
  async function* lines(): AsyncGenerator<string> {
    if (format === 'csv') yield `${csvColumns.join(',')}\r\n`;
    let before = filter.before;
    let left = auditExportLimit;
    while (left > 0) {
      const page = await readAuditPage(db, scope, {
        ...filter,
        ...(before === undefined ? {} : { before }),
        limit: Math.min(exportPageSize, left),
      });
      if (page.entries.length > 0) {
        yield page.entries
          .map((entry) => (format === 'csv' ? csvLine(entry) : `${JSON.stringify(entry)}\n`))
          .join('');
      }
      left -= page.entries.length;
      if (page.nextBefore === null) return;
      before = page.nextBefore;
    }
  }
  return Readable.from(lines());
};
