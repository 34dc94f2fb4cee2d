import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type AppContext, messageBusOf } from '../app-context.js';
import { type Config, loadConfig } from '../infra/config/config.js';
import type { Database } from '../infra/db/database.js';
import { createActorResolution } from '../infra/auth/actor-resolution.js';
import {
  type BusOptions,
  createNotificationBus,
  type NotificationBus,
} from '../infra/db/notification-bus.js';
import { createDeviceContacts } from '../features/heartbeat/device-contacts.js';
import { createApp } from '../infra/http/create-app.js';
import { registerNotificationBus } from '../infra/http/register-notification-bus.js';
import { createHookRegistry } from '../infra/odata/hooks.js';
import { v7Model } from '../model/v7-model.js';

// The LISTEN connection of a test process (silent; ctx.notifications).
export const createTestNotificationBus = (
  db: Database,
  options: Partial<BusOptions> = {},
): NotificationBus =>
  createNotificationBus(db, { warn: () => undefined, info: () => undefined }, options);

// One bus per Database, as a server process has: several contexts on one pool (a test building
// apps with different settings) share its LISTEN connection instead of each taking one from the
// pool. Tests that model two processes give each its own Database (pool).
const sharedBuses = new WeakMap<Database, NotificationBus>();
const sharedBusOf = (db: Database): NotificationBus => {
  let bus = sharedBuses.get(db);
  if (!bus) {
    bus = createTestNotificationBus(db);
    sharedBuses.set(db, bus);
  }
  return bus;
};

export type TestContextOverrides = Partial<Omit<AppContext, 'db' | 'config'>> & {
  config?: Partial<Config>;
};

// An AppContext for tests: default configuration (no environment read, a scratch data
// directory), a fresh hook registry, a random signing secret and the real clock unless overridden.
export const createTestContext = (
  db: Database,
  overrides: TestContextOverrides = {},
): AppContext => {
  const { config, ...rest } = overrides;
  return {
    db,
    // Files a feature keeps in the data directory (the registry's signing key) go to a scratch
    // directory, never to the ./data of a developer's own server.
    config: {
      ...loadConfig({}),
      logLevel: 'silent',
      dataDir: path.join(tmpdir(), 'flotilla-test-data'),
      ...config,
    },
    model: v7Model,
    hooks: createHookRegistry(),
    now: () => new Date(),
    jwtSecret: randomBytes(32),
    notifications: sharedBusOf(db),
    contacts: createDeviceContacts(db),
    installation: { kind: 'bound', id: 'test' },
    ...rest,
  };
};

export type FeatureRegistration = (app: FastifyInstance, ctx: AppContext) => void;

// The real HTTP stack (actor resolution with its cache, access checks, error mapping) with the
// given features, ready for app.inject. Close the app before the database: it holds the context's
// LISTEN connection.
export const createTestApp = async (
  ctx: AppContext,
  ...features: FeatureRegistration[]
): Promise<FastifyInstance> => {
  const actors = createActorResolution(ctx);
  const app = createApp({
    resolveActor: actors.resolveActor,
    logLevel: 'silent',
    trustProxy: ctx.config.trustProxy,
  });
  registerNotificationBus(app, ctx.notifications);
  if (ctx.bus) registerNotificationBus(app, ctx.bus, ctx.db);
  actors.attach(app, messageBusOf(ctx));
  for (const register of features) register(app, ctx);
  await app.ready();
  return app;
};
