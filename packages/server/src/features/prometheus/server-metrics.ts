import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Database } from '../../infra/db/database.js';
import type { NotificationBus } from '../../infra/db/notification-bus.js';
import { observeFastAnswers } from '../../infra/http/fast-answers.js';
import { createAnswerTally } from './answer-tally.js';

export type ServerSources = {
  db: Pick<Database, 'poolStats'>;
  notifications: Pick<NotificationBus, 'isLive' | 'heartbeatLagMs'>;
  cloudlinkConnections: () => number;
  builds: () => { running: number; waiting: number };
};

// Requests by route pattern (never the raw URL, so the label set is the set of registered routes),
// method and status; the process's own gauges, read at scrape time.
export const registerServerMetrics = (
  app: FastifyInstance,
  registry: Registry,
  sources: ServerSources,
): void => {
  const fastAnswers = createAnswerTally();
  const requests = new Counter({
    name: 'flotilla_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status code',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
    collect() {
      fastAnswers.drain((labels, count) => this.inc(labels, count));
    },
  });
  const duration = new Histogram({
    name: 'flotilla_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by route pattern and method',
    labelNames: ['route', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const observe = (route: string, method: string, status: number, seconds: number): void => {
    const labels = { route, method };
    requests.inc({ ...labels, status: String(status) });
    duration.observe(labels, seconds);
  };
  app.addHook('onResponse', async (request, reply) => {
    // Unmatched URLs (404s of any path) share one label, so a scan cannot grow the series.
    observe(
      request.routeOptions.url ?? 'unmatched',
      request.method,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
  // Polls answered before the framework (infra/http/fast-answers.ts) count the same, their
  // labels made once and their count added when the counter is read (answer-tally.ts).
  observeFastAnswers(app, (route, method, status, seconds) => {
    const series = fastAnswers.series(route, method, status);
    series.uncounted += 1;
    duration.observe(series.labels, seconds);
  });

  new Gauge({
    name: 'flotilla_db_pool_connections',
    help: 'Database pool connections by state (open, idle) and requests waiting for one',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = sources.db.poolStats();
      this.set({ state: 'open' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  new Gauge({
    name: 'flotilla_notifications_live',
    help: '1 while the PostgreSQL notification connection listens on every channel',
    registers: [registry],
    collect() {
      this.set(sources.notifications.isLive() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'flotilla_notification_lag_seconds',
    help: 'Round trip of the last notification heartbeat through PostgreSQL',
    registers: [registry],
    collect() {
      const lag = sources.notifications.heartbeatLagMs();
      if (lag !== undefined) this.set(lag / 1000);
    },
  });
  new Gauge({
    name: 'flotilla_cloudlink_connections',
    help: 'Device cloudlinks held by this process',
    registers: [registry],
    collect() {
      this.set(sources.cloudlinkConnections());
    },
  });
  new Gauge({
    name: 'flotilla_builds',
    help: "Image builds in this process's queue, running or waiting",
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const counts = sources.builds();
      this.set({ state: 'running' }, counts.running);
      this.set({ state: 'waiting' }, counts.waiting);
    },
  });
};
