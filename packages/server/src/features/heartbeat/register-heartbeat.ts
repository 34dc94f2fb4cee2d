import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { registerPeriodicTask, type Schedule } from '../../infra/scheduling/periodic-task.js';

// Writes the contacts recorded in memory (ctx.contacts, device-contacts.ts) every
// config.contactFlushIntervalMs, and once more when the server closes. While the database is
// away the flush fails, its entries wait for the next one, and the outage is logged once.
export const registerHeartbeat = (
  app: FastifyInstance,
  ctx: AppContext,
  options: { schedule?: Schedule } = {},
): void => {
  let failing = false;

  const flush = async (): Promise<void> => {
    try {
      await ctx.contacts.flush();
      if (failing) app.log.info('device contacts are written again');
      failing = false;
    } catch (error) {
      if (!failing) app.log.warn({ err: error }, 'could not write device contacts; will retry');
      failing = true;
    }
  };

  registerPeriodicTask(app, {
    run: flush,
    intervalMs: ctx.config.contactFlushIntervalMs,
    // flush logs its own failures, once per outage.
    failure: 'could not write device contacts; will retry',
    schedule: options.schedule,
  });
  app.addHook('onClose', async () => {
    await flush();
  });
};
