import { statusNoticeInput } from '@flotilla/shared/status/status-notice-input';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type AppContext, messageBusOf } from '../../app-context.js';
import { notFound } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { imageBuilderOf } from '../builder/image-builder.js';
import { requirePlatformAdmin } from '../platform-admin/register-platform-admin.js';
import { deleteNotice, postNotice, recentNotices, setNoticeResolved } from './status-notices.js';
import {
  databaseProbe,
  mailProbe,
  operational,
  registryProbe,
  type StatusProbe,
} from './status-probes.js';
import { createStatusService, type StatusService } from './status-service.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(maxRowId) });
const resolveBody = z.object({ resolved: z.boolean({ error: 'Resolved must be true or false' }) });

// The components besides the API and the database, each probed from what this process knows.
const probesOf = (ctx: AppContext): StatusProbe[] => [
  {
    id: 'device-links',
    name: 'Device links',
    // Device actions reach a device held by another process through the message bus (NATS
    // or PostgreSQL notifications).
    async probe() {
      return messageBusOf(ctx).isLive()
        ? operational
        : {
            status: 'degraded',
            detail: 'Devices connected to other server processes are unreachable',
          };
    },
  },
  {
    id: 'builder',
    name: 'Builder',
    async probe() {
      const availability = imageBuilderOf(ctx.config);
      return 'builder' in availability
        ? operational
        : { status: 'unknown', detail: `Image builds are off: ${availability.unavailable}` };
    },
  },
  registryProbe(() => ctx.config.registry?.url),
  mailProbe(ctx.db, ctx.now),
];

// The built-in status page: GET /status/v1 (public) derives components from this server's own
// health plus the incidents and maintenance notices platform administrators post
// (/admin/v1/status/notices). It answers 200 even while the database is away (database outage,
// notices null), from probes bounded in time and cached for a few seconds.
export const registerStatus = (app: FastifyInstance, ctx: AppContext): StatusService => {
  const status = createStatusService({
    db: ctx.db,
    now: ctx.now,
    externalUrl: ctx.config.statusPageUrl,
    databaseProbe: databaseProbe(ctx.db),
    probes: probesOf(ctx),
  });

  app.get('/status/v1', { config: { access: 'public' } }, async (_request, reply) => {
    void reply.header('Cache-Control', 'no-store');
    return status.current();
  });

  app.get('/admin/v1/status/notices', { config: { access: 'user' } }, async (request) => {
    requirePlatformAdmin(request.actor);
    return { notices: await recentNotices(ctx.db) };
  });

  app.post('/admin/v1/status/notices', { config: { access: 'user' } }, async (request, reply) => {
    const admin = requirePlatformAdmin(request.actor);
    const input = parseBody(statusNoticeInput, request.body);
    const notice = await recordedTransaction(
      ctx.db,
      request,
      ctx.now,
      (tx) => postNotice(tx, input, admin.userId, ctx.now()),
      { status: 201 },
    );
    status.invalidate();
    return reply.status(201).send(notice);
  });

  app.patch('/admin/v1/status/notices/:id', { config: { access: 'user' } }, async (request) => {
    requirePlatformAdmin(request.actor);
    const { id } = parseBody(idParams, request.params);
    const { resolved } = parseBody(resolveBody, request.body);
    const notice = await recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
      const changed = await setNoticeResolved(tx, id, resolved, ctx.now());
      if (!changed) throw notFound('No such notice');
      return changed;
    });
    status.invalidate();
    return notice;
  });

  app.delete(
    '/admin/v1/status/notices/:id',
    { config: { access: 'user' } },
    async (request, reply) => {
      requirePlatformAdmin(request.actor);
      const { id } = parseBody(idParams, request.params);
      await recordedTransaction(
        ctx.db,
        request,
        ctx.now,
        async (tx) => {
          if (!(await deleteNotice(tx, id))) throw notFound('No such notice');
        },
        { status: 204 },
      );
      status.invalidate();
      return reply.status(204).send();
    },
  );

  return status;
};
