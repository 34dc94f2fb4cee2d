import type { FastifyInstance } from 'fastify';
import type { NotificationBus } from '../db/notification-bus.js';

// The app holds the process's LISTEN connection (ctx.notifications) from ready to close: the
// first holder's ready opens it (its first attempt awaited, a failed one retried in the
// background), the last holder's close closes it, before the pool is closed. Several apps may
// share one bus (tests build several on one context); holding it twice from one app is harmless.
export const registerNotificationBus = (app: FastifyInstance, bus: NotificationBus): void => {
  let held = false;
  app.addHook('onReady', async () => {
    held = true;
    await bus.start();
  });
  app.addHook('onClose', async () => {
    if (!held) return;
    held = false;
    await bus.stop();
  });
};
