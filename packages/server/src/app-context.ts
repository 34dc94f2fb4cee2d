import type { Config } from './infra/config/config.js';
import type { Database } from './infra/db/database.js';
import type { NotificationBus } from './infra/db/notification-bus.js';
import type { ReadRouting } from './infra/db/read-routing.js';
import type { DeviceContacts } from './features/heartbeat/device-contacts.js';
import type { InstallationBinding } from './infra/installation/installation-binding.js';
import type { HookRegistry } from './infra/odata/hooks.js';
import type { Model } from './model/model-types.js';

// What features receive when they register: explicit dependencies, no globals.
export type AppContext = {
  db: Database;
  config: Config;
  model: Model;
  hooks: HookRegistry;
  // Injectable for tests that move time (token expiry, heartbeats, rate limits).
  now: () => Date;
  // Secret used to sign session tokens (from FLOTILLA_JWT_SECRET or the data directory).
  jwtSecret: Uint8Array;
  // The process's one LISTEN connection, for every channel (infra/db/notification-bus.ts); open
  // while an app holds it (from its ready to its close).
  notifications: NotificationBus;
  // The bus of the hot paths between processes (device-log fan-out, cloudlink routing): NATS
  // when FLOTILLA_NATS_URL is set (infra/bus/nats-bus.ts); absent, `notifications` serves.
  bus?: NotificationBus;
  // Device contacts and metrics, recorded in memory and written in batches.
  contacts: DeviceContacts;
  // Whether the database and the data directory belong to each other (checked at start): the
  // file sweeps delete nothing otherwise.
  installation: InstallationBinding;
  // Heavy console reads on a read replica (FLOTILLA_DATABASE_READ_URL), within its staleness bound.
  readRouting?: ReadRouting;
};

// The bus of the hot paths: NATS when configured, otherwise the LISTEN connection.
export const messageBusOf = (ctx: Pick<AppContext, 'bus' | 'notifications'>): NotificationBus =>
  ctx.bus ?? ctx.notifications;
