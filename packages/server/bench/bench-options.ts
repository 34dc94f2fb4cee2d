// Modes and knobs of `npm run bench` (docs/BENCHMARK.md): every knob is an environment variable
// whose default depends on the mode. Quick is for development (under two minutes); full is the
// figure of record (100,000 devices, five rounds).

export type BenchMode = 'quick' | 'full';

export type BenchOptions = {
  mode: BenchMode;
  rounds: number;
  // Per side and round: the load runs warmupMs unrecorded, then durationMs recorded.
  warmupMs: number;
  durationMs: number;
  // Closed-loop requests in flight for the read scenarios, and for the throughput ones.
  concurrency: number;
  throughputConcurrency: number;
  devices: number;
  // Devices with keys for the device protocol scenarios (polls, state reports, logs).
  protocolDevices: number;
  // NDJSON uploads offering 450 lines/s each (the saturation ingest).
  logStreams: number;
  // Lines per second of the moderate live-tail scenario.
  tailLinesPerSecond: number;
  cloudlinkConnections: number;
  only: string[];
  explain: boolean;
  scale: boolean;
  scaleDevices: number;
  // The scale scenario's "default" poll interval; the second phase polls ten times as often.
  scalePollMs: number;
  // Devices start spread over this long.
  scaleSpreadMs: number;
  // Which buses' server setups the scale scenario runs (both by default).
  scaleBuses: ScaleBus[];
};

export type ScaleBus = 'postgres' | 'nats';

// BENCH_SCALE_BUS: "postgres", "nats" or "both", so one part of the long scale run can be
// repeated on its own.
export const scaleBusesOf = (env: NodeJS.ProcessEnv): ScaleBus[] => {
  const value = env.BENCH_SCALE_BUS ?? 'both';
  if (value === 'both' || value === '') return ['postgres', 'nats'];
  if (value === 'postgres' || value === 'nats') return [value];
  throw new Error(`BENCH_SCALE_BUS must be postgres, nats or both, not "${value}"`);
};

const numberFrom = (env: NodeJS.ProcessEnv, name: string, fallback: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    throw new Error(`${name} must be a non-negative number, not "${raw}"`);
  }
  return value;
};

export const modeOf = (argv: readonly string[], env: NodeJS.ProcessEnv): BenchMode => {
  if (argv.includes('--quick')) return 'quick';
  if (argv.includes('--full')) return 'full';
  const value = env.BENCH_MODE ?? 'full';
  if (value !== 'quick' && value !== 'full') {
    throw new Error(`BENCH_MODE must be quick or full, not "${value}"`);
  }
  return value;
};

// BENCH_ONLY: comma-separated substrings of scenario ids (e.g. "poll,tail").
export const onlyOf = (env: NodeJS.ProcessEnv): string[] =>
  (env.BENCH_ONLY ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

export const loadBenchOptions = (argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions => {
  const mode = modeOf(argv, env);
  const quick = mode === 'quick';
  const only = onlyOf(env);
  const devices = numberFrom(env, 'BENCH_DEVICES', quick ? 10_000 : 100_000);
  const scaleDevices = numberFrom(env, 'BENCH_SCALE_DEVICES', quick ? 1000 : 50_000);
  if (devices < 2000 || devices % 200 !== 0) {
    throw new Error('BENCH_DEVICES must be a multiple of 200, at least 2,000');
  }
  return {
    mode,
    rounds: Math.max(1, Math.round(numberFrom(env, 'BENCH_ROUNDS', quick ? 3 : 5))),
    warmupMs: numberFrom(env, 'BENCH_WARMUP_MS', quick ? 200 : 1000),
    durationMs: numberFrom(env, 'BENCH_DURATION_MS', quick ? 1000 : 5000),
    concurrency: Math.max(1, numberFrom(env, 'BENCH_CONCURRENCY', 8)),
    throughputConcurrency: Math.max(1, numberFrom(env, 'BENCH_THROUGHPUT_CONCURRENCY', 32)),
    devices,
    protocolDevices: Math.min(
      devices,
      Math.max(250, numberFrom(env, 'BENCH_PROTOCOL_DEVICES', quick ? 1000 : 10_000)),
    ),
    logStreams: Math.max(1, numberFrom(env, 'BENCH_LOG_STREAMS', 96)),
    tailLinesPerSecond: Math.max(10, numberFrom(env, 'BENCH_TAIL_RATE', 1000)),
    cloudlinkConnections: numberFrom(env, 'BENCH_CLOUDLINK_CONNECTIONS', quick ? 1000 : 10_000),
    only,
    explain: env.BENCH_EXPLAIN === '1',
    scale: argv.includes('--scale') || only.includes('scale'),
    scaleDevices,
    scalePollMs: numberFrom(env, 'BENCH_SCALE_POLL_MS', quick ? 60_000 : 600_000),
    // 10,000 devices over 5 minutes boot without errors here: the same rate for more.
    scaleSpreadMs: numberFrom(env, 'BENCH_SCALE_SPREAD_MS', quick ? 10_000 : scaleDevices * 30),
    scaleBuses: scaleBusesOf(env),
  };
};

// A scenario runs when BENCH_ONLY names it (a substring of its id), or when nothing is named and
// it is not an extra of full mode only.
export const isSelected = (
  options: Pick<BenchOptions, 'only' | 'mode'>,
  scenario: { id: string; extra?: boolean },
): boolean =>
  options.only.length === 0
    ? !(scenario.extra === true && options.mode === 'quick')
    : options.only.some((part) => scenario.id.includes(part));
