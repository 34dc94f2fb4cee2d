import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.js';
import { type Config } from './infra/config/config.js';
import { loadSigningSecret } from './infra/auth/signing-secret.js';
import { type Database, openDatabase } from './infra/db/database.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './infra/db/embedded-postgres.js';
import { migrate } from './infra/db/migrate.js';
import { createNotificationFeed } from './infra/db/notification-feed.js';
import { createHookRegistry } from './infra/odata/hooks.js';
import { v7Model } from './model/v7-model.js';
import { buildServer } from './server.js';
import { seedDemo } from './features/demo/seed-demo.js';
import { createDeviceContacts } from './features/heartbeat/device-contacts.js';
import { ensureFirstAdmin } from './features/users/ensure-first-admin.js';

export type RunningServer = {
  app: FastifyInstance;
  ctx: AppContext;
  url: string;
  stop(): Promise<void>;
};

// Starts everything a Flotilla process needs: the database (embedded unless DATABASE_URL is
// set), migrations, the first administrator, and the HTTP server.
export const startServer = async (
  config: Config,
  print: (line: string) => void = (line) => console.log(line),
): Promise<RunningServer> => {
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    print(`Starting the embedded PostgreSQL (data in ${config.dataDir}) ...`);
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      port: config.embeddedPostgresPort,
    });
    databaseUrl = embedded.url;
  }
  let db: Database | undefined;
  try {
    db = openDatabase(databaseUrl);
    const { applied } = await migrate(db);
    if (applied.length > 0) print(`Applied migrations: ${applied.join(', ')}`);
    const ctx: AppContext = {
      db,
      config,
      model: v7Model,
      hooks: createHookRegistry(),
      now: () => new Date(),
      jwtSecret: await loadSigningSecret(config),
      notifications: createNotificationFeed(db),
      contacts: createDeviceContacts(db),
    };
    await ensureFirstAdmin(db, config, print);
    if (config.demo) await seedDemo(db, config.dataDir, print);
    const app = buildServer(ctx);
    const address = await app.listen({ port: config.port, host: config.host });
    const openDb = db;
    return {
      app,
      ctx,
      url: address,
      async stop() {
        await app.close();
        await openDb.close();
        await embedded?.stop();
      },
    };
  } catch (error) {
    await db?.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw error;
  }
};
