import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { registerPeriodicTask, type Schedule } from '../../infra/scheduling/periodic-task.js';

// How often the status tally's rows of devices offline for good are merged
// (flotilla_compact_device_status_tally, migrations/0022-device-status-tally.sql). The counts are
// exact without it; it keeps the rows a fleet's count reads to a few dozen.
export const statusTallyCompactionIntervalMs = 60_000;

// Compacts once when the server is ready, then every interval (one process at a time: the
// function skips while another holds its lock).
export const registerStatusTallyCompaction = (
  app: FastifyInstance,
  ctx: AppContext,
  options: { schedule?: Schedule } = {},
): void => {
  registerPeriodicTask(app, {
    run: async () => {
      await ctx.db.query('SELECT flotilla_compact_device_status_tally()');
    },
    intervalMs: statusTallyCompactionIntervalMs,
    firstRunMs: 0,
    // The next run tries again; the counts stay exact meanwhile.
    failure: 'could not compact the device status tally; will retry',
    schedule: options.schedule,
  });
};
