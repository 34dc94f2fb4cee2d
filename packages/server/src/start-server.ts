import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.js';
import { type Config } from './infra/config/config.js';
import { loadSigningSecret } from './infra/auth/signing-secret.js';
import { type Database, openDatabase } from './infra/db/database.js';
import { openReadRouting } from './infra/db/read-routing.js';
import {
  type EmbeddedDatabase,
  type EmbeddedLog,
  startEmbeddedPostgres,
} from './infra/db/embedded-postgres.js';
import { migrate } from './infra/db/migrate.js';
import { bindInstallation } from './infra/installation/installation-binding.js';
import { createNatsBus } from './infra/bus/nats-bus.js';
import { createNotificationBus } from './infra/db/notification-bus.js';
import { createHookRegistry } from './infra/odata/hooks.js';
import { v7Model } from './model/v7-model.js';
import { buildServer } from './server.js';
import { buildDemoRelease } from './features/demo/demo-build.js';
import { demoEngineOf, realDevicesOf } from './features/demo/demo-engine.js';
import { type DemoBuild, seedDemo } from './features/demo/seed-demo.js';
import { startRegistryIfEmbedded } from './features/registry/start-embedded-registry.js';
import type { EmbeddedRegistry } from './infra/registry/embedded-registry.js';
import { createDeviceContacts } from './features/heartbeat/device-contacts.js';
import { ensureFirstAdmin } from './features/users/ensure-first-admin.js';
import { consoleUrl, databaseLocation, type StartBannerInfo } from './start-banner.js';

export type RunningServer = {
  app: FastifyInstance;
  ctx: AppContext;
  url: string;
  // What the start banner shows (start-banner.ts).
  banner: StartBannerInfo;
  // The embedded PostgreSQL's postmaster pid (undefined with DATABASE_URL or while it is down).
  embeddedPostgresPid(): number | undefined;
  // In order: stop accepting, close device links and log streams, let requests finish (Fastify's
  // preClose / close / onClose, which also close the LISTEN connection), close the pool, then stop
  // the embedded PostgreSQL.
  stop(): Promise<void>;
  // The process exits now (a second Ctrl-C): ask the embedded PostgreSQL to stop, do not wait.
  abandon(): void;
};

// Where the process reports what happens to its database (a pino logger fits).
export type ServerLog = EmbeddedLog & { error(message: string): void };

const printingLog = (print: (line: string) => void): ServerLog => ({
  debug: () => undefined,
  info: print,
  warn: print,
  error: print,
});

// Starts everything a Flotilla process needs: the database (embedded unless DATABASE_URL is
// set), migrations, the first administrator, and the HTTP server.
export const startServer = async (
  givenConfig: Config,
  print: (line: string) => void = (line) => console.log(line),
  log: ServerLog = printingLog(print),
): Promise<RunningServer> => {
  let config = givenConfig;
  let embedded: EmbeddedDatabase | undefined;
  let registry: EmbeddedRegistry | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    print(`Starting the embedded PostgreSQL (data in ${config.dataDir}) ...`);
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      port: config.embeddedPostgresPort,
      log,
    });
    databaseUrl = embedded.url;
  }
  let db: Database | undefined;
  let replica: ReturnType<typeof openReadRouting> = undefined;
  try {
    db = openDatabase(databaseUrl);
    const stopReporting = db.onAvailabilityChange((available, cause) => {
      if (available) log.info('The database answers again');
      else {
        const why = cause instanceof Error ? cause.message : String(cause);
        log.warn(`${why}; requests answer 503 until it is back`);
      }
    });
    const { applied, fresh } = await migrate(db);
    if (applied.length > 0) print(`Applied migrations: ${applied.join(', ')}`);
    const installation = await bindInstallation(db, config.dataDir, { databaseIsNew: fresh });
    if (installation.kind === 'mismatch') log.warn(installation.reason);
    ({ config, registry } = await startRegistryIfEmbedded(config, print, (line) => log.warn(line)));
    replica = openReadRouting(db, config.readReplica, (line) => log.warn(line));
    const ctx: AppContext = {
      db,
      config,
      model: v7Model,
      hooks: createHookRegistry(),
      now: () => new Date(),
      jwtSecret: await loadSigningSecret(config),
      notifications: createNotificationBus(db, log, {
        heartbeatIntervalMs: config.notificationHeartbeatMs,
      }),
      ...(config.messageBus.natsUrl === undefined
        ? {}
        : {
            bus: createNatsBus(config.messageBus.natsUrl, log, {
              heartbeatIntervalMs: config.notificationHeartbeatMs,
            }),
          }),
      contacts: createDeviceContacts(db, {
        metricsRetentionMs: config.metricsRetentionHours * 3_600_000,
      }),
      installation,
      ...(replica ? { readRouting: replica.routing } : {}),
    };
    const admin = await ensureFirstAdmin(db, config, print);
    const demoEngine = config.demo ? await demoEngineOf(config) : undefined;
    let demoBuild: DemoBuild | undefined;
    if (config.demo) {
      const seeded = await seedDemo(
        db,
        config.dataDir,
        print,
        demoEngine?.kind === 'real' ? demoEngine.deviceType : undefined,
        config.billingEnabled ? { now: ctx.now() } : undefined,
      );
      demoBuild = seeded.build;
    }
    const app = buildServer(ctx);
    const address = await app.listen({ port: config.port, host: config.host });
    if (demoBuild !== undefined && demoEngine?.kind === 'real') {
      // After listening: the engine pulls nothing, but the registry asks this server for tokens.
      print(`Building the first release of ${demoBuild.slug} on the container engine ...`);
      const built = await buildDemoRelease(
        ctx,
        demoBuild.fleetId,
        demoBuild.admin,
        demoEngine.busybox,
      );
      print(
        built.status === 'success'
          ? `Built the first release of ${demoBuild.slug}: its images are in the registry`
          : `The first release of ${demoBuild.slug} failed to build: ${built.log.slice(-3).join(' / ')}`,
      );
    }
    const openRegistry = registry;
    const openDb = db;
    const openReplica = replica;
    const openEmbedded = embedded;
    return {
      app,
      ctx,
      url: address,
      banner: {
        url: consoleUrl(address),
        adminEmail: admin.email,
        generatedPassword: admin.kind === 'created' ? admin.generatedPassword : undefined,
        database: openEmbedded
          ? { kind: 'embedded', dir: path.join(config.dataDir, 'postgres') }
          : { kind: 'external', location: databaseLocation(databaseUrl) },
        dataDir: config.dataDir,
        ...(demoEngine === undefined ? {} : { realDevices: realDevicesOf(demoEngine) }),
      },
      embeddedPostgresPid: () => openEmbedded?.pid(),
      async stop() {
        await app.close();
        log.debug('Stopped the HTTP server: device links, log streams and requests are done');
        // From here on the database going away is the plan, not news.
        stopReporting();
        await openReplica?.close();
        await openDb.close();
        log.debug('Closed the database pool');
        await openRegistry?.stop();
        if (openRegistry) log.debug('Stopped the embedded registry');
        await openEmbedded?.stop();
        if (openEmbedded) log.debug('Stopped the embedded PostgreSQL');
      },
      abandon: () => {
        void openRegistry?.stop();
        openEmbedded?.abandon();
      },
    };
  } catch (error) {
    await replica?.close().catch(() => undefined);
    await db?.close().catch(() => undefined);
    await registry?.stop().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw error;
  }
};
