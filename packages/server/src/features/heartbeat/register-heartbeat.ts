import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';

// Runs `task` once after `ms`; the returned function cancels it. Injectable for tests.
export type Schedule = (task: () => void, ms: number) => () => void;

const realSchedule: Schedule = (task, ms) => {
  const timer = setTimeout(task, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

// Writes the contacts recorded in memory (ctx.contacts, device-contacts.ts) every
// config.contactFlushIntervalMs, and once more when the server closes. While the database is
// away the flush fails, its entries wait for the next one, and the outage is logged once.
export const registerHeartbeat = (
  app: FastifyInstance,
  ctx: AppContext,
  options: { schedule?: Schedule } = {},
): void => {
  const schedule = options.schedule ?? realSchedule;
  let cancel: (() => void) | undefined;
  let failing = false;
  let closed = false;

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

  const tick = (): void => {
    cancel = schedule(() => {
      void flush().finally(() => {
        if (!closed) tick();
      });
    }, ctx.config.contactFlushIntervalMs);
  };

  app.addHook('onReady', async () => {
    tick();
  });
  app.addHook('onClose', async () => {
    closed = true;
    cancel?.();
    await flush();
  });
};
