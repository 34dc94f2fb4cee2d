import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { type Config, loadConfig } from '../infra/config/config.js';
import type { Database } from '../infra/db/database.js';
import { createDeviceContacts } from '../features/heartbeat/device-contacts.js';
import { createHookRegistry } from '../infra/odata/hooks.js';
import { v7Model } from '../model/v7-model.js';
import { buildServer } from '../server.js';
import { createTestNotificationBus } from './test-context.js';
import { createTestDatabase } from './test-database.js';

export type TestServer = {
  app: FastifyInstance;
  ctx: AppContext;
  db: Database;
  // Base URL of the listening server, e.g. http://127.0.0.1:41234
  url: string;
  close(): Promise<void>;
};

export type TestServerOverrides = Partial<Omit<AppContext, 'config'>> & {
  // Settings over the test defaults.
  config?: Partial<Config>;
  // Log lines at the configured level go here (set config.logLevel too).
  logStream?: { write(line: string): void };
};

// The whole server on a fresh database, listening on a free loopback port (for the real SDK).
export const startTestServer = async (overrides: TestServerOverrides = {}): Promise<TestServer> => {
  const { config, logStream, ...rest } = overrides;
  const db = await createTestDatabase();
  // A data directory of its own: the default (./data) may be a developer's, and the server's
  // startup sweeps release-asset files its (fresh) database does not know.
  const ownDataDir =
    config?.dataDir === undefined
      ? await mkdtemp(path.join(tmpdir(), 'flotilla-test-server-'))
      : undefined;
  const ctx: AppContext = {
    db,
    // Contract tests sign up and log in many users from one address: limits out of the way.
    config: {
      ...loadConfig({ FLOTILLA_LOG_LEVEL: 'silent' }),
      loginRateLimitPerMinute: 1000,
      loginAccountRateLimitPerMinute: 1000,
      loginAddressRateLimitPerMinute: 1000,
      signupRateLimitPerHour: 1000,
      ...(ownDataDir === undefined ? {} : { dataDir: ownDataDir }),
      ...config,
    },
    model: v7Model,
    hooks: createHookRegistry(),
    now: () => new Date(),
    jwtSecret: randomBytes(32),
    notifications: createTestNotificationBus(db),
    contacts: createDeviceContacts(db),
    installation: { kind: 'bound', id: 'test' },
    ...rest,
  };
  const app = buildServer(ctx, logStream ? { logStream } : {});
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    ctx,
    db,
    url,
    async close() {
      await app.close();
      await db.close();
      if (ownDataDir !== undefined) await rm(ownDataDir, { recursive: true, force: true });
    },
  };
};
