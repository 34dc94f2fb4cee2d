import {
  auditExportFormats,
  auditFilterSchema,
  type AuditFilter,
} from '@flotilla/shared/audit-log/audit-entry';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { registerPeriodicTask, type Schedule } from '../../infra/scheduling/periodic-task.js';
import {
  requireFleetAuditReader,
  requireOrganizationAuditReader,
  requirePlatformAuditReader,
} from './audit-access.js';
import { auditExportStream } from './audit-export.js';
import { type AuditScope, readAuditPage } from './audit-query.js';
import { auditPruneIntervalMs, pruneAuditLog } from './audit-retention.js';
import { registerRouteRecords } from './audit-route-records.js';

const organizationParams = z.object({
  organizationId: z.coerce.number().int().min(1).max(maxRowId),
});
const fleetParams = z.object({ fleetId: z.coerce.number().int().min(1).max(maxRowId) });
const exportQuery = auditFilterSchema.extend({
  format: z.enum(auditExportFormats).default('ndjson'),
});

const sendExport = (
  ctx: AppContext,
  reply: FastifyReply,
  scope: AuditScope,
  query: AuditFilter & { format: (typeof auditExportFormats)[number] },
): FastifyReply => {
  const { format, ...filter } = query;
  const stamp = ctx.now().toISOString().slice(0, 10);
  return reply
    .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson')
    .header('Content-Disposition', `attachment; filename="audit-log-${stamp}.${format}"`)
    .header('Cache-Control', 'no-store')
    .send(auditExportStream(ctx.db, scope, filter, format));
};

// The audit log's routes: an organization's log for its administrators, a fleet's history for
// its administrators, the whole log for the platform's administrators (both filtered, paged by id, and exported as CSV or NDJSON), and the
// retention sweep (FLOTILLA_AUDIT_LOG_RETENTION_DAYS) when the server is ready and every hour.
export const registerAuditLog = (
  app: FastifyInstance,
  ctx: AppContext,
  options: { schedule?: Schedule } = {},
): void => {
  const organizationScope = async (request: FastifyRequest): Promise<AuditScope> => {
    const { organizationId } = parseBody(organizationParams, request.params);
    await requireOrganizationAuditReader(ctx.db, request.actor, organizationId);
    return { organizationId };
  };
  const platformScope = (request: FastifyRequest): AuditScope => {
    requirePlatformAuditReader(request.actor);
    return { organizationId: null };
  };

  app.get(
    '/audit-log/v1/organizations/:organizationId/entries',
    { config: { access: 'user' } },
    async (request) => {
      const scope = await organizationScope(request);
      return readAuditPage(ctx.db, scope, parseBody(auditFilterSchema, request.query));
    },
  );
  app.get(
    '/audit-log/v1/organizations/:organizationId/export',
    { config: { access: 'user' } },
    async (request, reply) => {
      const scope = await organizationScope(request);
      return sendExport(ctx, reply, scope, parseBody(exportQuery, request.query));
    },
  );
  // A fleet's history (its devices' too, with `device`): the fleet page and the device page.
  app.get(
    '/audit-log/v1/fleets/:fleetId/entries',
    { config: { access: 'user' } },
    async (request) => {
      const { fleetId } = parseBody(fleetParams, request.params);
      await requireFleetAuditReader(ctx.db, request.actor, fleetId);
      const filter = parseBody(auditFilterSchema, request.query);
      return readAuditPage(ctx.db, { organizationId: null }, { ...filter, fleet: fleetId });
    },
  );
  app.get('/audit-log/v1/entries', { config: { access: 'user' } }, async (request) => {
    const scope = platformScope(request);
    return readAuditPage(ctx.db, scope, parseBody(auditFilterSchema, request.query));
  });
  app.get('/audit-log/v1/export', { config: { access: 'user' } }, async (request, reply) => {
    const scope = platformScope(request);
    return sendExport(ctx, reply, scope, parseBody(exportQuery, request.query));
  });

  registerRouteRecords(app, ctx.db, ctx.now);

  const retentionMs = ctx.config.auditLog.retentionDays * 86_400_000;
  registerPeriodicTask(app, {
    run: async () => {
      const cutoff = new Date(ctx.now().getTime() - retentionMs);
      await pruneAuditLog(ctx.db, cutoff, ctx.config.auditLog.pruneBatch);
    },
    intervalMs: auditPruneIntervalMs,
    firstRunMs: 0,
    // The next sweep tries again.
    failure: 'could not prune the audit log; will retry',
    schedule: options.schedule,
  });
};
