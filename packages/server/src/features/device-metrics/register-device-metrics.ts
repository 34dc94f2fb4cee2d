import type { MetricHistory } from '@flotilla/shared/device-metrics/metric-history';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { parseBody } from '../../infra/http/validate.js';
import { registerPeriodicTask, type Schedule } from '../../infra/scheduling/periodic-task.js';
import { deviceResource, findPermittedDevice } from '../device-state/find-device.js';
import { readMetricHistory, sweepMetricHistory } from './metric-history-store.js';
import { parseMetricsQuery } from './metrics-query.js';

const uuidParams = z.object({ uuid: z.string().min(1).max(100) });

// How often readings older than the retention are swept (those of devices that stopped
// reporting: the others are trimmed as they report).
export const metricSweepIntervalMs = 3_600_000;

// GET /device/v2/:uuid/metrics: the device's recent metric history (the wire contract has none;
// ours, next to its logs). Whoever may read the device may read it; anyone else gets the 401 the
// API gives for rows it does not show. Readings are recorded by the heartbeat batch.
export const registerDeviceMetrics = (
  app: FastifyInstance,
  ctx: AppContext,
  options: { schedule?: Schedule } = {},
): void => {
  const retentionMs = ctx.config.metricsRetentionHours * 3_600_000;
  registerPeriodicTask(app, {
    run: () => sweepMetricHistory(ctx.db, new Date(ctx.now().getTime() - retentionMs)),
    intervalMs: metricSweepIntervalMs,
    // The next sweep tries again; nothing is lost by waiting.
    failure: 'could not sweep old device metrics; will retry',
    schedule: options.schedule,
  });

  app.get('/device/v2/:uuid/metrics', { config: { access: 'any-actor' } }, async (request) => {
    const { uuid } = parseBody(uuidParams, request.params);
    const query = parseMetricsQuery(request.query, ctx.now(), retentionMs);
    const device = await findPermittedDevice(ctx.db, request.actor, uuid, {
      resource: deviceResource(ctx.model),
      action: 'read',
    });
    const points = await readMetricHistory(ctx.db, device.id, query);
    const answer: MetricHistory = {
      since: query.since.toISOString(),
      until: query.until.toISOString(),
      points,
    };
    return answer;
  });
};
