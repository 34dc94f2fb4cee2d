import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
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

export type TestContextOverrides = Partial<Omit<AppContext, 'db' | 'config'>> & {
  config?: Partial<Config>;
};

// An AppContext for tests: default configuration (no environment read), a fresh hook registry,
// a random signing secret and the real clock unless overridden.
export const createTestContext = (
  db: Database,
  overrides: TestContextOverrides = {},
): AppContext => {
  const { config, ...rest } = overrides;
  return {
    db,
    config: { ...loadConfig({}), logLevel: 'silent', ...config },
    model: v7Model,
    hooks: createHookRegistry(),
    now: () => new Date(),
    jwtSecret: randomBytes(32),
    notifications: createTestNotificationBus(db),
    contacts: createDeviceContacts(db),
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
  actors.attach(app, ctx.notifications);
  for (const register of features) register(app, ctx);
  await app.ready();
  return app;
};
