import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.js';
import { createNotificationBus, type NotificationBus } from '../db/notification-bus.js';

type Shared = { bus: NotificationBus; apps: number };
const shared = new WeakMap<Pick<Database, 'connect'>, Shared>();

// The LISTEN connection of a database, one per process however many apps serve from it (tests
// build several): started when the first app gets ready (its first attempt awaited, a failed one
// retried in the background) and stopped when the last one closes.
export const registerNotificationBus = (
  app: FastifyInstance,
  db: Pick<Database, 'connect'>,
): NotificationBus => {
  let entry = shared.get(db);
  if (!entry) {
    entry = { bus: createNotificationBus(db, app.log), apps: 0 };
    shared.set(db, entry);
  }
  const { bus } = entry;
  const users = entry;
  let started = false;
  app.addHook('onReady', async () => {
    started = true;
    users.apps += 1;
    await bus.start();
  });
  app.addHook('onClose', async () => {
    if (!started) return;
    started = false;
    users.apps -= 1;
    if (users.apps === 0) await bus.stop();
  });
  return bus;
};
