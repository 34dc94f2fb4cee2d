// `npm run bench`: Flotilla's built server against a bare Fastify reference doing the minimal same
// work, on one throwaway PostgreSQL, with the load from a process of its own. For each scenario
// (scenarios.ts) both sides are measured in A/B interleaved rounds; the table shows the median of
// the per-round ratios, their spread and the goal of issue 15 beside it. A report, not a test:
// a missed goal is printed, never an error; the exit code is non-zero only when a scenario could
// not run, the two sides answered differently, or requests failed. Modes and knobs:
// bench-options.ts and docs/BENCHMARK.md.
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { signSessionToken } from '../src/infra/auth/session-token.js';
import { openDatabase } from '../src/infra/db/database.js';
import { migrate } from '../src/infra/db/migrate.js';
import { isSelected, loadBenchOptions } from './bench-options.js';
import { type BenchDatabase, provisionDatabase } from './bench-database.js';
import { startLoadGenerator } from './load-client.js';
import { createDeviceKeys } from './protocol-devices.js';
import { flotillaMain, repoRoot, startServerProcess } from './processes.js';
import { writeReport } from './report.js';
import { runScenario, type ScenarioOutcome } from './rounds.js';
import type { BenchEnv, Window } from './scenario.js';
import { scenarios } from './scenarios.js';
import { defaultSeedOptions, seedBenchData, type BenchUser } from './seed.js';
import { formatSummaryTable } from './table.js';
import { explainScenarios } from './explain-run.js';
import { growthNote } from './growth.js';
import { runScale, type ScalePhase } from './scale.js';
import { formatScaleTable } from './scale-table.js';
import {
  type AgentFootprint,
  formatAgentFootprint,
  measureAgentFootprint,
} from './agent-footprint.js';

const options = loadBenchOptions(process.argv.slice(2), process.env);
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const log = (line: string): void => console.log(line);
const loadAverage = (): string =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

// Cleanups run in reverse order on success, failure and Ctrl-C alike.
const cleanups: (() => Promise<void>)[] = [];
const cleanUp = async (): Promise<void> => {
  while (cleanups.length > 0) {
    await cleanups
      .pop()?.()
      .catch((error: unknown) => console.error('cleanup failed:', error));
  }
};
let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) return;
  interrupted = true;
  console.error('\nInterrupted, cleaning up ...');
  void cleanUp().finally(() => process.exit(130));
});

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

const token = (secret: string, user: BenchUser): Promise<string> =>
  signSessionToken(
    new TextEncoder().encode(secret),
    { id: user.userId, jwt_secret: user.jwtSecret, authTime: Date.now(), permissions: [] },
    new Date(),
  );

const prepareDatabase = async (database: BenchDatabase) => {
  const db = openDatabase(database.url, { max: 2 });
  try {
    let mark = performance.now();
    await migrate(db);
    log(`Migrated in ${seconds(performance.now() - mark)}`);
    mark = performance.now();
    const client = await db.connect();
    const seed = await seedBenchData(client, {
      ...defaultSeedOptions,
      devices: options.devices,
    }).finally(() => client.release());
    const seedSeconds = (performance.now() - mark) / 1000;
    log(
      `Seeded ${Object.entries(seed.counts)
        .map(([table, count]) => `${count.toLocaleString('en')} ${table}`)
        .join(', ')} (and ANALYZEd) in ${seedSeconds.toFixed(1)} s`,
    );
    // The memory scenario warms its server with as many other devices as it measures.
    const keys = Math.max(options.protocolDevices, 2 * options.cloudlinkConnections);
    const devices = await createDeviceKeys(db, keys);
    return { seed, seedSeconds, devices };
  } finally {
    await db.close();
  }
};

const main = async (): Promise<number> => {
  const startedAt = new Date();
  const startLoad = loadAverage();
  log(
    `Bench, ${options.mode} mode: ${options.rounds} rounds of ${seconds(options.warmupMs)} warm-up + ` +
      `${seconds(options.durationMs)} per side; ${os.cpus().length} CPUs, load average ${startLoad}`,
  );
  await access(flotillaMain).catch(() => {
    throw new Error(`${flotillaMain} is missing: build the server first (npm run bench does)`);
  });
  const database = await provisionDatabase(repoRoot);
  cleanups.push(() => database.drop());
  log(`PostgreSQL (${database.kind}) ready`);
  const { seed, seedSeconds, devices } = await prepareDatabase(database);

  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  pool.on('error', () => undefined);
  cleanups.push(() => pool.end());
  const jwtSecret = randomBytes(32).toString('hex');
  const dataDir = path.join(repoRoot, 'data', 'bench-server');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const startServer = (side: 'flotilla' | 'reference', env: Record<string, string> = {}) =>
    startServerProcess(side, { databaseUrl: database.url, jwtSecret, dataDir }, env);
  const flotilla = await startServer('flotilla');
  cleanups.push(() => flotilla.stop());
  const reference = await startServer('reference');
  cleanups.push(() => reference.stop());
  const load = await startLoadGenerator();
  cleanups.push(() => load.stop());
  log(
    `Flotilla ${flotilla.url} (pid ${flotilla.pid}), reference ${reference.url} (pid ${reference.pid}), load generator pid ${load.pid}`,
  );

  const env: BenchEnv = {
    options,
    flotilla,
    reference,
    load,
    startServer,
    db: pool,
    databaseUrl: database.url,
    dataDir,
    seed,
    tokens: {
      admin: await token(jwtSecret, seed.admin),
      member: await token(jwtSecret, seed.member),
      smallAdmin: await token(jwtSecret, seed.smallAdmin),
    },
    devices: devices.slice(0, options.protocolDevices),
    linkDevices: devices.slice(0, 2 * options.cloudlinkConnections),
    log,
  };
  const window: Window = { warmupMs: options.warmupMs, durationMs: options.durationMs };
  const selected = scenarios.filter((candidate) => isSelected(options, candidate));
  const outcomes: ScenarioOutcome[] = [];
  for (const scenario of selected) {
    const mark = performance.now();
    try {
      await scenario.prepare?.(env);
      if (options.explain) await explainScenarios(env, jwtSecret, [scenario]);
      const differences = (await scenario.verify?.(env)) ?? [];
      if (differences.length > 0) {
        outcomes.push({
          id: scenario.id,
          rounds: [],
          summaries: [],
          problems: differences.map((text) => `Flotilla and the reference disagree: ${text}`),
        });
        continue;
      }
      outcomes.push(await runScenario(scenario, env, window));
    } catch (error) {
      outcomes.push({
        id: scenario.id,
        rounds: [],
        summaries: [],
        problems: [
          `failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        ],
      });
    } finally {
      await scenario
        .cleanUp?.(env)
        .catch((error: unknown) => console.error('cleanup failed:', error));
    }
    log(`  ${scenario.id} done in ${seconds(performance.now() - mark)}`);
  }

  let scale: ScalePhase[] = [];
  const scaleProblems: string[] = [];
  if (options.scale) {
    const mark = performance.now();
    try {
      scale = await runScale({
        options,
        seed,
        db: pool,
        startFlotilla: (serverEnv) => startServer('flotilla', serverEnv),
        postmasterPid: () => database.postmasterPid(),
        log,
      });
    } catch (error) {
      scaleProblems.push(
        `failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    }
    for (const phase of scale) {
      if (phase.errors > 0) {
        scaleProblems.push(
          `${phase.servers} server(s), ${phase.rate}: ${phase.errors} errors, first: ${phase.firstError ?? '?'}`,
        );
      }
    }
    log(`  scale done in ${seconds(performance.now() - mark)}`);
  }

  let agentFootprint: AgentFootprint | undefined;
  const agentProblems: string[] = [];
  if (isSelected(options, { id: 'agent-footprint' })) {
    const mark = performance.now();
    try {
      const { rows } = await pool.query<{ organization: number }>(
        `SELECT "is_member_of__organization" AS "organization" FROM "organization_membership"
          WHERE "user" = $1 ORDER BY "id" LIMIT 1`,
        [seed.admin.userId],
      );
      agentFootprint = await measureAgentFootprint({
        startServer,
        adminToken: env.tokens.admin,
        organizationId: rows[0]?.organization ?? 0,
        settleMs: options.mode === 'quick' ? 5000 : 20_000,
        windowMs: options.mode === 'quick' ? 10_000 : 60_000,
        log,
      });
    } catch (error) {
      agentProblems.push(
        `failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    }
    log(`  agent-footprint done in ${seconds(performance.now() - mark)}`);
  }

  const summaries = outcomes.flatMap((outcome) => outcome.summaries);
  const endLoad = loadAverage();
  if (summaries.length > 0) {
    log(`\n${formatSummaryTable(summaries, options.rounds)}\n`);
    const growth = growthNote(outcomes);
    if (growth) log(growth);
    log(
      `${options.mode} mode, ${options.devices.toLocaleString('en')} devices, ${os.cpus().length} CPUs; ` +
        `load average ${startLoad} at the start, ${endLoad} at the end.`,
    );
  }
  if (scale.length > 0) {
    log(
      `\nScale: ${options.scaleDevices.toLocaleString('en')} simulated devices (a simulator process per server, at most 15,000 devices each), fresh Flotilla process(es), one PostgreSQL\n`,
    );
    log(`${formatScaleTable(scale)}\n`);
  }
  if (agentFootprint !== undefined) log(`${formatAgentFootprint(agentFootprint).join('\n')}\n`);
  const problems = [
    ...agentProblems.map((problem) => `agent-footprint: ${problem}`),
    ...outcomes.flatMap((outcome) =>
      outcome.problems.map((problem) => `${outcome.id}: ${problem}`),
    ),
    ...scaleProblems.map((problem) => `scale: ${problem}`),
  ];
  for (const problem of problems) console.error(`!!! ${problem}`);

  const file = path.join(repoRoot, 'bench-results', 'latest.json');
  await writeReport(file, {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    options,
    environment: {
      node: process.version,
      database: database.kind,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      commit: gitCommit(),
      loadAverageStart: startLoad,
      loadAverageEnd: endLoad,
    },
    seed: { seconds: seedSeconds, counts: seed.counts },
    scenarios: outcomes,
    scale,
    ...(agentFootprint === undefined ? {} : { agentFootprint }),
  });
  log(`Wrote ${path.relative(process.cwd(), file)}`);
  return problems.length > 0 ? 1 : 0;
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
