import type { UsageSummary } from '@flotilla/shared/analytics/usage';
import { usageEvents } from '@flotilla/shared/analytics/usage-events';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { notFound } from '../../infra/errors/api-error.js';
import { clientAddressKey } from '../../infra/http/client-address.js';
import { parseBody } from '../../infra/http/validate.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { requirePlatformAdmin } from '../platform-admin/register-platform-admin.js';
import { createPlausibleForwarder } from './plausible-forwarder.js';

export const usagePostsPerAddressPerMinute = 60;
const usageBodyLimit = 8_192;

const summaryQuery = z.object({ days: z.coerce.number().int().min(1).max(365).default(30) });

// First-party analytics: the console posts page views (route patterns) and feature uses, only
// when the user allowed analytics in the cookie banner; the server keeps daily counts and nothing
// about who (no user, address, session or cookie is stored). Platform administrators read the
// totals (GET /admin/v1/usage). With Plausible configured, the same uses are sent there too.
export const registerAnalytics = (app: FastifyInstance, ctx: AppContext): void => {
  const limiter = createRateLimiter(ctx.db, ctx.now);
  const plausible =
    ctx.config.plausible === undefined
      ? undefined
      : createPlausibleForwarder(ctx.config.plausible, app.log);
  if (plausible) app.addHook('onClose', async () => plausible.close());

  app.post(
    '/analytics/v1/events',
    { config: { access: 'public' }, bodyLimit: usageBodyLimit },
    async (request, reply) => {
      if (ctx.config.analytics === 'off') throw notFound('Analytics is off on this server');
      const { events } = parseBody(usageEvents, request.body);
      await limiter.take([
        {
          key: `usage:address:${clientAddressKey(request.ip)}`,
          limit: usagePostsPerAddressPerMinute,
          windowMs: 60_000,
        },
      ]);
      const day = ctx.now().toISOString().slice(0, 10);
      await ctx.db.query(
        `INSERT INTO "usage_count" ("day", "kind", "name", "count")
         SELECT $1::date, e."kind", e."name", count(*)
           FROM unnest($2::text[], $3::text[]) AS e("kind", "name")
          GROUP BY e."kind", e."name"
         ON CONFLICT ("day", "kind", "name")
         DO UPDATE SET "count" = "usage_count"."count" + EXCLUDED."count"`,
        [day, events.map((event) => event.kind), events.map((event) => event.name)],
      );
      plausible?.send(events, request.headers['user-agent'] ?? '');
      return reply.status(204).send();
    },
  );

  app.get('/admin/v1/usage', { config: { access: 'user' } }, async (request) => {
    requirePlatformAdmin(request.actor);
    const { days } = parseBody(summaryQuery, request.query);
    const since = new Date(ctx.now().getTime() - (days - 1) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const { rows } = await ctx.db.query<{ kind: 'page' | 'feature'; name: string; count: string }>(
      `SELECT "kind", "name", sum("count")::text AS "count" FROM "usage_count"
        WHERE "day" >= $1::date GROUP BY "kind", "name"
        ORDER BY sum("count") DESC, "kind", "name" LIMIT 500`,
      [since],
    );
    const summary: UsageSummary = {
      days,
      rows: rows.map((row) => ({ kind: row.kind, name: row.name, count: Number(row.count) })),
    };
    return summary;
  });
};
