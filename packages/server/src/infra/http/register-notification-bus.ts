import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.js';
import type { NotificationBus } from '../db/notification-bus.js';

// The app holds the process's LISTEN connection (ctx.notifications) from ready to close: the
// first holder's ready opens it (its first attempt awaited, a failed one retried in the
// background), the last holder's close closes it, before the pool is closed. Several apps may
// share one bus (tests build several on one context); holding it twice from one app is harmless.
//
// Given the database (a bus that cannot see commits: NATS), the app also has the triggers'
// notifications recorded instead of NOTIFYed from ready to close, and publishes what each
// transaction recorded on the bus once it has committed (infra/db/recorded-notifications.ts). A
// publication the bus refuses (NATS not connected) is dropped: this process's caches are not
// trusted while its bus is down, and the other processes' within their expiry.
export const registerNotificationBus = (
  app: FastifyInstance,
  bus: NotificationBus,
  db?: Pick<Database, 'recordNotifications'>,
): void => {
  let held = false;
  let stopRecording: (() => void) | undefined;
  app.addHook('onReady', async () => {
    held = true;
    await bus.start();
    stopRecording = db?.recordNotifications((notifications) => {
      for (const { channel, payload } of notifications) {
        bus.publish(channel, payload).catch(() => undefined);
      }
    });
  });
  app.addHook('onClose', async () => {
    if (!held) return;
    held = false;
    stopRecording?.();
    stopRecording = undefined;
    await bus.stop();
  });
};
