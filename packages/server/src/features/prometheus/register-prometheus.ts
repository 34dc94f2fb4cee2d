import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { PrometheusConfig } from '../../infra/config/prometheus.js';
import type { Queryable } from '../../infra/db/database.js';
import type { NotificationBus } from '../../infra/db/notification-bus.js';
import { notFound, unauthorized } from '../../infra/errors/api-error.js';
import { createFleetGauges } from './fleet-gauges.js';
import { type FleetSnapshot, readFleetSnapshot } from './fleet-metrics.js';
import { scrapeVerdict } from './scrape-access.js';
import { registerNatsMetrics } from './nats-metrics.js';
import { registerServerMetrics, type ServerSources } from './server-metrics.js';

export type PrometheusDeps = ServerSources & {
  config: PrometheusConfig;
  query: Queryable;
  now: () => Date;
  // The NATS bus, when the process has one (its metrics are absent otherwise).
  bus?: Pick<NotificationBus, 'state' | 'traffic'> | undefined;
};

// Several scrapers (two Prometheus replicas, a dashboard) share one fleet read per this long.
export const fleetSnapshotMaxAgeMs = 10_000;

// GET /metrics in Prometheus' text format: the process (prom-client's defaults), the server
// (requests, database pool, notifications, cloudlinks, builds) and the fleets (devices by status
// and update status, readings), for whoever the configuration admits. Off unless configured.
export const registerPrometheus = (app: FastifyInstance, deps: PrometheusDeps): void => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerServerMetrics(app, registry, deps);
  if (deps.bus) registerNatsMetrics(registry, deps.bus);
  const fleets = createFleetGauges(registry);
  let snapshot: { at: number; read: Promise<FleetSnapshot> } | undefined;
  const fleetSnapshot = (): Promise<FleetSnapshot> => {
    const now = deps.now().getTime();
    if (snapshot === undefined || now - snapshot.at >= fleetSnapshotMaxAgeMs) {
      const read = readFleetSnapshot(deps.query, deps.config.fleetLimit);
      snapshot = { at: now, read };
      // A failed read is not kept: the next scrape tries again.
      read.catch(() => {
        if (snapshot?.read === read) snapshot = undefined;
      });
    }
    return snapshot.read;
  };

  app.get(
    '/metrics',
    { config: { access: 'public', ownCredential: true } },
    async (request, reply) => {
      const verdict = scrapeVerdict(deps.config, {
        authorization: request.headers.authorization,
        ip: request.ip,
      });
      if (verdict === 'off') {
        throw notFound(
          'Metrics are off: set FLOTILLA_PROMETHEUS_TOKEN or FLOTILLA_PROMETHEUS_ALLOWED_NETWORKS',
        );
      }
      if (verdict === 'refused') throw unauthorized('A valid metrics token is required');
      fleets.set(await fleetSnapshot());
      const body = await registry.metrics();
      return reply.header('Cache-Control', 'no-store').type(registry.contentType).send(body);
    },
  );
};
