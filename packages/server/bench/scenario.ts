import type pg from 'pg';
import type { BenchOptions } from './bench-options.js';
import type { LoadGenerator } from './load-client.js';
import type { RequestSpec } from './load-jobs.js';
import type { ChildServer, StartServer } from './processes.js';
import type { BenchDevice } from './protocol-devices.js';
import type { SeedInfo } from './seed.js';

// What a scenario is (the one interface to implement to add a row to `npm run bench`).
//
// A scenario measures one piece of work twice per round: on Flotilla (the built server, a child
// process) and on the reference (a bare Fastify app doing the minimal same work on the same
// database and pool size, another child process). The load comes from a third process, the load
// generator (load-generator.ts), which runs jobs (load-jobs.ts). The runner (rounds.ts) calls
// `measure` for both sides, interleaved A/B then B/A over the rounds, and prints one table row per
// entry of `rows`: each row reads one metric of the two measures and judges it against its goal.

export type Side = 'flotilla' | 'reference';

// How a row is judged. `ratio`: Flotilla's metric ÷ the reference's, per round, then the median
// of those ratios. `absolute`: Flotilla's own metric (the reference's is printed beside it).
export type Goal =
  | { kind: 'ratio'; better: 'higher' | 'lower'; target: number }
  | { kind: 'absolute'; better: 'higher' | 'lower'; target: number }
  | { kind: 'none' };

export type Unit = 'req/s' | 'ops/s' | 'lines/s' | 'MB/s' | 'ms' | 'KB' | 'rows' | '%';

export type Row = {
  name: string;
  // A key of Measure.metrics (opsPerSecond, p50Ms, p99Ms, or one the scenario adds).
  metric: string;
  unit: Unit;
  goal: Goal;
  // The goal as the issue states it, printed beside the result.
  goalText: string;
};

// One side's result for one round. `metrics` always has opsPerSecond, p50Ms and p99Ms (NaN when
// they mean nothing for the scenario); a scenario adds its own (tailP99Ms, bytesPerConnection...).
export type Measure = {
  metrics: Record<string, number>;
  requests: number;
  errors: number;
  firstError: string | undefined;
};

export type Window = { warmupMs: number; durationMs: number };

export type BenchEnv = {
  options: BenchOptions;
  // The long-lived processes every scenario shares.
  flotilla: ChildServer;
  reference: ChildServer;
  load: LoadGenerator;
  // Fresh server processes of either side (the memory scenario measures one from its start).
  startServer: StartServer;
  // The orchestrator's own connection to the bench database (setup and checks, not load).
  db: pg.Pool;
  databaseUrl: string;
  seed: SeedInfo;
  // The data directory of every Flotilla server the bench starts (its registry signing key).
  dataDir: string;
  // Session tokens of the seeded users (signed with the server's FLOTILLA_JWT_SECRET).
  tokens: { admin: string; member: string; smallAdmin: string };
  // Devices with device API keys (options.protocolDevices of them).
  devices: readonly BenchDevice[];
  // Devices with keys for the memory scenario: twice options.cloudlinkConnections, the first
  // half measured, the second half warming the server up.
  linkDevices: readonly BenchDevice[];
  log: (line: string) => void;
};

export type Scenario = {
  // Short, stable name for BENCH_ONLY (e.g. "poll", "state-report").
  id: string;
  rows: readonly Row[];
  // Only in full mode, unless BENCH_ONLY names it.
  extra?: boolean;
  // False: Flotilla alone (the rows must then have absolute goals or none).
  hasReference?: boolean;
  // Once before the rounds (e.g. priming ETags): not measured.
  prepare?: (env: BenchEnv) => Promise<void>;
  // Once before the rounds: both sides must answer the same; returns the differences.
  verify?: (env: BenchEnv) => Promise<string[]>;
  // Once after the rounds, whatever happened: stops what `prepare` started.
  cleanUp?: (env: BenchEnv) => Promise<void>;
  // One side, one round.
  measure: (side: Side, env: BenchEnv, window: Window) => Promise<Measure>;
  // The process on the reference side when it is not env.reference (its CPU is printed).
  referenceServer?: (env: BenchEnv) => { cpuMillis(): Promise<number> };
  // Likewise on the Flotilla side, when the scenario runs processes of its own.
  flotillaServer?: (env: BenchEnv) => { cpuMillis(): Promise<number> };
  // One Flotilla request of the scenario, for BENCH_EXPLAIN=1 (explain-run.ts).
  sample?: (env: BenchEnv) => RequestSpec;
};
