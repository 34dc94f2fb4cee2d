import { readFileSync } from 'node:fs';
import { consoleErrorReport } from '@flotilla/shared/error-reports/console-error-report';
import { errorReportLimits } from '@flotilla/shared/error-reports/error-reports';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { notFound } from '../../infra/errors/api-error.js';
import { clientAddressKey } from '../../infra/http/client-address.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { requirePlatformAdmin } from '../platform-admin/register-platform-admin.js';
import {
  cleanOccurrence,
  deleteError,
  type ErrorOccurrence,
  listErrors,
  recordError,
} from './error-store.js';
import { createSentryForwarder } from './sentry-forwarder.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

// A console error report is small; anything bigger is refused before it is parsed.
export const errorReportBodyLimit = 16_384;
// Per address, and for everyone together: a broken console in many tabs must not flood the table.
export const errorReportsPerAddressPerMinute = 30;
export const errorReportsPerMinute = 600;
// Server errors written at once; more are dropped (and stay in the log) rather than queued.
const maxServerWritesInFlight = 4;

const listQuery = z.object({ source: z.enum(['console', 'server']).optional() });
const idParams = z.object({ id: z.coerce.number().int().min(1).max(maxRowId) });

const serverRelease = ((): string => {
  try {
    const text = readFileSync(new URL('../../../package.json', import.meta.url), 'utf8');
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && 'version' in parsed
      ? String(parsed.version)
      : '';
  } catch {
    return '';
  }
})();

// Error reporting, built in: the console posts its unhandled errors (POST /error-reports/v1) and
// the server counts its own 500s; both are grouped with counts and first/last seen for the Admin
// area (GET /admin/v1/error-reports). Texts are scrubbed of secrets and bounded in size.
export const registerErrorReports = (app: FastifyInstance, ctx: AppContext): void => {
  const limiter = createRateLimiter(ctx.db, ctx.now);
  const failures = new WeakMap<FastifyRequest, Error>();
  let inFlight = 0;
  // With FLOTILLA_SENTRY_DSN, every occurrence also goes to Sentry (the built-in store keeps it too).
  const sentry =
    ctx.config.sentryDsn === undefined
      ? undefined
      : createSentryForwarder(ctx.config.sentryDsn, ctx.config.deploymentTag ?? 'production');
  if (sentry) app.addHook('onClose', async () => sentry.close());
  const record = (occurrence: ErrorOccurrence): Promise<void> => {
    sentry?.forward(cleanOccurrence(occurrence));
    return recordError(ctx.db, occurrence, ctx.now());
  };

  app.addHook('onError', async (request, _reply, error) => {
    failures.set(request, error);
  });
  // A database outage (503) is not an error of the code, and cannot be written anyway.
  app.addHook('onResponse', async (request, reply) => {
    const error = failures.get(request);
    if (!error || reply.statusCode < 500 || reply.statusCode === 503) return;
    if (inFlight >= maxServerWritesInFlight) return;
    inFlight += 1;
    const route = request.routeOptions.url ?? '';
    record({
      source: 'server',
      name: error.name,
      message: error.message,
      stack: error.stack ?? '',
      location: `${request.method} ${route}`,
      release: serverRelease,
      requestId: request.id,
    })
      .catch((failure: unknown) =>
        request.log.warn({ err: failure }, 'could not record a server error'),
      )
      .finally(() => {
        inFlight -= 1;
      });
  });

  app.post(
    '/error-reports/v1',
    { config: { access: 'public' }, bodyLimit: errorReportBodyLimit },
    async (request, reply) => {
      const report = parseBody(consoleErrorReport, request.body);
      await limiter.take([
        {
          key: `error-reports:address:${clientAddressKey(request.ip)}`,
          limit: errorReportsPerAddressPerMinute,
          windowMs: 60_000,
        },
        { key: 'error-reports:all', limit: errorReportsPerMinute, windowMs: 60_000 },
      ]);
      await record({
        source: 'console',
        name: report.name,
        message: report.message,
        stack: report.stack,
        location: report.location,
        release: report.release.slice(0, errorReportLimits.release),
        requestId: report.requestId ?? null,
      });
      return reply.status(204).send();
    },
  );

  app.get('/admin/v1/error-reports', { config: { access: 'user' } }, async (request) => {
    requirePlatformAdmin(request.actor);
    const { source } = parseBody(listQuery, request.query);
    return { errors: await listErrors(ctx.db, source) };
  });

  app.delete(
    '/admin/v1/error-reports/:id',
    { config: { access: 'user' } },
    async (request, reply) => {
      requirePlatformAdmin(request.actor);
      const { id } = parseBody(idParams, request.params);
      await recordedTransaction(
        ctx.db,
        request,
        ctx.now,
        async (tx) => {
          if (!(await deleteError(tx, id))) throw notFound('No such error');
        },
        { status: 204 },
      );
      return reply.status(204).send();
    },
  );
};
