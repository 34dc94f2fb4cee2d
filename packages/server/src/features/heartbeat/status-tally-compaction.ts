import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import type { Schedule } from './register-heartbeat.js';

// How often the status tally's rows of devices offline for good are merged
// (flotilla_compact_device_status_tally, migrations/0022-device-status-tally.sql). The counts are
// exact without it; it keeps the rows a fleet's count reads to a few dozen.
export const statusTallyCompactionIntervalMs = 60_000;

const realSchedule: Schedule = (task, ms) => {
  const timer = setTimeout(task, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

// Compacts once when the server is ready, then every interval (one process at a time: the
// function skips while another holds its lock).
export const registerStatusTallyCompaction = (
  app: FastifyInstance,
  ctx: AppContext,
  options: { schedule?: Schedule } = {},
): void => {
  const schedule = options.schedule ?? realSchedule;
  let cancel: (() => void) | undefined;
  let closed = false;
  const compact = async (): Promise<void> => {
    try {
      await ctx.db.query('SELECT flotilla_compact_device_status_tally()');
    } catch (error) {
      // The next run tries again; the counts stay exact meanwhile.
      app.log.warn({ err: error }, 'could not compact the device status tally; will retry');
    }
  };
  const tick = (ms: number): void => {
    cancel = schedule(() => {
      void compact().finally(() => {
        if (!closed) tick(statusTallyCompactionIntervalMs);
      });
    }, ms);
  };
  app.addHook('onReady', async () => {
    tick(0);
  });
  app.addHook('onClose', async () => {
    closed = true;
    cancel?.();
  });
};
