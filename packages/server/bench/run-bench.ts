// `npm run bench`: seeds 100,000 devices into a throwaway PostgreSQL, starts the real server
// in-process, and measures each scenario through the HTTP API and OData engine against the same
// work done with hand-written SQL. A report, not a test: timings are never asserted.
//
// Then the device protocol (issue 4) against the same server, in a second table: state reports,
// target-state polls, log ingest and cloudlink memory (protocol.ts).
//
// Knobs (environment): DATABASE_URL (use that server instead of an embedded one),
// BENCH_DURATION_MS (5000), BENCH_WARMUP_MS (1000), BENCH_CONCURRENCY (8), BENCH_DEVICES (100000,
// a multiple of 200, for quick trial runs), BENCH_ONLY (comma-separated substrings of the names
// of the scenarios to run, in both tables, e.g. "floor,cloudlink"), BENCH_EXPLAIN=1 (print
// EXPLAIN ANALYZE of the engine's statements for every scenario), BENCH_PROTOCOL_DEVICES (10000
// simulated devices with keys; 0 skips the protocol table), BENCH_LOG_STREAMS (96 concurrent log
// uploads, each offering 450 lines/s), BENCH_CLOUDLINK_CONNECTIONS (2000),
// BENCH_COLD_LOAD_ROUNDS (10 rounds of the console's cold load, console-cold-load.ts).
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { AppContext } from '../src/app-context.js';
import { signSessionToken } from '../src/infra/auth/session-token.js';
import { loadConfig } from '../src/infra/config/config.js';
import { openDatabase } from '../src/infra/db/database.js';
import { startEmbeddedPostgres } from '../src/infra/db/embedded-postgres.js';
import { migrate } from '../src/infra/db/migrate.js';
import { createNotificationBus } from '../src/infra/db/notification-bus.js';
import { createDeviceContacts } from '../src/features/heartbeat/device-contacts.js';
import { createHookRegistry } from '../src/infra/odata/hooks.js';
import { v7Model } from '../src/model/v7-model.js';
import { buildServer } from '../src/server.js';
import { runConsoleColdLoad } from './console-cold-load.js';
import { createStatementRecorder, explainStatements, poolQueryable } from './explain.js';
import { type LoadOptions, runLoad } from './measure.js';
import { runProtocolScenarios } from './protocol.js';
import type { ProtocolOptions, ProtocolResult } from './protocol-types.js';
import {
  type BenchReport,
  formatProtocolTable,
  formatTable,
  type ScenarioResult,
  writeReport,
} from './report.js';
import { type BenchEnv, seededRandom } from './scenario-env.js';
import { buildScenarios } from './scenarios.js';
import { type BenchUser, defaultSeedOptions, seedBenchData } from './seed.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const numberFromEnv = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`${name} must be a non-negative number`);
  return value;
};

const load: LoadOptions = {
  warmupMs: numberFromEnv('BENCH_WARMUP_MS', 1000),
  durationMs: numberFromEnv('BENCH_DURATION_MS', 5000),
  concurrency: numberFromEnv('BENCH_CONCURRENCY', 8),
};
const protocolOptions: ProtocolOptions = {
  devices: numberFromEnv('BENCH_PROTOCOL_DEVICES', 10_000),
  logStreams: numberFromEnv('BENCH_LOG_STREAMS', 96),
  cloudlinkConnections: numberFromEnv('BENCH_CLOUDLINK_CONNECTIONS', 2000),
  load,
};
// Both sides get the same number of connections: the server's pool and the baseline's.
const poolSize = 10;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

// Cleanups run in reverse order on success, failure and Ctrl-C alike.
const cleanups: (() => Promise<void>)[] = [];
const cleanUp = async (): Promise<void> => {
  while (cleanups.length > 0) {
    const cleanup = cleanups.pop();
    await cleanup?.().catch((error: unknown) => console.error('cleanup failed:', error));
  }
};
let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) return;
  interrupted = true;
  console.error('\nInterrupted, cleaning up ...');
  void cleanUp().finally(() => process.exit(130));
});

type BenchDatabase = { url: string; kind: string };

// A database of our own: a fresh one inside DATABASE_URL's server, or an embedded PostgreSQL in
// a throwaway data directory. Either is removed at the end.
const provisionDatabase = async (): Promise<BenchDatabase> => {
  const name = `flotilla_bench_${randomBytes(4).toString('hex')}`;
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${name}"`);
    } finally {
      await admin.end();
    }
    cleanups.push(async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await cleanup.end();
      }
    });
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return { url: url.toString(), kind: 'DATABASE_URL' };
  }
  const dataDir = path.join(repoRoot, 'data', 'bench-postgres');
  await rm(dataDir, { recursive: true, force: true });
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const embedded = await startEmbeddedPostgres({ dataDir, port: 0, database: name });
  cleanups.push(() => embedded.stop());
  return { url: embedded.url, kind: 'embedded' };
};

const sessionToken = (ctx: AppContext, user: BenchUser): Promise<string> =>
  signSessionToken(
    ctx.jwtSecret,
    { id: user.userId, jwt_secret: user.jwtSecret, authTime: Date.now(), permissions: [] },
    ctx.now(),
  );

const gitCommit = (): string => {
  try {
    return execSync('git rev-parse --short HEAD', {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
};

const main = async (): Promise<number> => {
  const startedAt = new Date();
  const devices = numberFromEnv('BENCH_DEVICES', defaultSeedOptions.devices);
  const explain = process.env.BENCH_EXPLAIN === '1';

  let mark = performance.now();
  const database = await provisionDatabase();
  console.log(`PostgreSQL (${database.kind}) ready in ${seconds(performance.now() - mark)}`);

  const rawDb = openDatabase(database.url, { max: poolSize });
  cleanups.push(() => rawDb.close());
  mark = performance.now();
  await migrate(rawDb);
  console.log(`Migrated in ${seconds(performance.now() - mark)}`);

  mark = performance.now();
  const seedClient = await rawDb.connect();
  const seed = await seedBenchData(seedClient, { ...defaultSeedOptions, devices }).finally(() =>
    seedClient.release(),
  );
  const seedMs = performance.now() - mark;
  console.log(
    `Seeded ${Object.entries(seed.counts)
      .map(([table, count]) => `${count.toLocaleString('en')} ${table}`)
      .join(', ')} (and ANALYZEd) in ${seconds(seedMs)}`,
  );

  // Statement recording costs a closure call per query; only wired in when explaining.
  const recorder = createStatementRecorder();
  const ctx: AppContext = {
    db: explain ? recorder.database(rawDb) : rawDb,
    config: { ...loadConfig({ FLOTILLA_LOG_LEVEL: 'silent' }), loginRateLimitPerMinute: 1000 },
    model: v7Model,
    hooks: createHookRegistry(),
    now: () => new Date(),
    jwtSecret: randomBytes(32),
    notifications: createNotificationBus(rawDb, {
      warn: (message) => console.warn(message),
      info: () => undefined,
    }),
    contacts: createDeviceContacts(rawDb),
  };
  const app = buildServer(ctx);
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  cleanups.push(() => app.close());

  const pool = new pg.Pool({ connectionString: database.url, max: poolSize });
  pool.on('error', () => undefined);
  cleanups.push(() => pool.end());

  const env: BenchEnv = {
    baseUrl,
    sql: explain ? recorder.queryable(poolQueryable(pool)) : poolQueryable(pool),
    seed,
    tokens: {
      admin: await sessionToken(ctx, seed.admin),
      member: await sessionToken(ctx, seed.member),
    },
    random: seededRandom(20_240_611),
  };
  // BENCH_ONLY: comma-separated substrings; a scenario runs when its name contains one.
  const only = (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const selected = (name: string): boolean =>
    only.length === 0 || only.some((part) => name.includes(part));
  const scenarios = buildScenarios(env).filter((scenario) => selected(scenario.name));

  // Correctness first: numbers for an engine answering something else would mean nothing.
  const problems: string[] = [];
  for (const scenario of scenarios) {
    for (const problem of (await scenario.verify?.()) ?? [])
      problems.push(`${scenario.name}: ${problem}`);
  }
  if (problems.length > 0) {
    console.error(`\n${'!'.repeat(100)}`);
    console.error(
      '!!! ENGINE AND HAND-WRITTEN SQL DISAGREE: the benchmark is not comparing the same work',
    );
    for (const problem of problems) console.error(`!!! ${problem}`);
    console.error(`${'!'.repeat(100)}\n`);
    return 1;
  }
  console.log('Sanity check passed: engine and SQL return the same rows for every sample');

  if (explain) {
    for (const scenario of scenarios) {
      for (const side of ['engine', 'sql'] as const) {
        const statements = await recorder.record(() => scenario[side]());
        console.log(`\n===== EXPLAIN ANALYZE (${side}): ${scenario.name} =====`);
        console.log(await explainStatements(pool, statements));
      }
    }
  }

  const pgVersion =
    (await pool.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0]?.v ??
    '?';
  console.log(
    `\nMeasuring ${scenarios.length} scenarios: ${load.concurrency} in flight, ` +
      `${seconds(load.warmupMs)} warm-up + ${seconds(load.durationMs)} per side\n`,
  );
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const engine = await runLoad(scenario.engine, load);
    const sql = await runLoad(scenario.sql, load);
    results.push({ name: scenario.name, engine, sql });
    console.log(
      `  ${scenario.name}: engine ${engine.requestsPerSecond.toFixed(1)} req/s p50 ${engine.p50Ms.toFixed(2)} ms, ` +
        `SQL ${sql.requestsPerSecond.toFixed(1)} req/s p50 ${sql.p50Ms.toFixed(2)} ms`,
    );
  }

  // The console's cold load (issue 8 section 3), before the device protocol's writes.
  if (selected('console-cold-load')) {
    console.log('');
    await runConsoleColdLoad({
      baseUrl,
      token: env.tokens.member,
      fleetCount: seed.memberFleetIds.length,
      rounds: numberFromEnv('BENCH_COLD_LOAD_ROUNDS', 10),
      log: console.log,
    });
  }

  // The device protocol last: its writes (reports, logs, sessions) must not slow the above.
  let protocol: ProtocolResult[] = [];
  if (protocolOptions.devices > 0) {
    console.log(
      `\nDevice protocol: ${protocolOptions.devices.toLocaleString('en')} simulated devices, ` +
        `${protocolOptions.logStreams} log streams, ` +
        `${protocolOptions.cloudlinkConnections.toLocaleString('en')} cloudlink connections\n`,
    );
    protocol = await runProtocolScenarios(
      { baseUrl, sql: poolQueryable(pool), options: protocolOptions, log: console.log },
      selected,
    );
  }

  if (results.length > 0) {
    console.log(`\n${formatTable(results)}\n`);
    console.log(
      'p50 ratio = engine p50 / SQL p50; req/s ratio = SQL req/s / engine req/s (1.00x = no overhead).',
    );
  }
  if (protocol.length > 0) console.log(`\n${formatProtocolTable(protocol)}\n`);

  const report: BenchReport = {
    startedAt: startedAt.toISOString(),
    environment: {
      node: process.version,
      postgres: pgVersion,
      database: database.kind,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      commit: gitCommit(),
    },
    load,
    seed: { seconds: seedMs / 1000, counts: seed.counts },
    results,
    protocolOptions: {
      devices: protocolOptions.devices,
      logStreams: protocolOptions.logStreams,
      cloudlinkConnections: protocolOptions.cloudlinkConnections,
    },
    protocol,
  };
  const file = path.join(repoRoot, 'bench-results', 'latest.json');
  await writeReport(file, report);
  console.log(`Wrote ${path.relative(process.cwd(), file)}`);
  const crashed = protocol.filter((result) => result.failed !== undefined);
  for (const result of crashed) console.error(`!!! ${result.name} crashed: ${result.failed}`);
  return crashed.length > 0 ? 1 : 0;
};

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(error);
} finally {
  await cleanUp();
}
process.exit(exitCode);
