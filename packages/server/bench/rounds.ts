import { performance } from 'node:perf_hooks';
import type { BenchEnv, Measure, Scenario, Side, Window } from './scenario.js';
import { type RoundValues, type RowSummary, summarizeRow } from './stats.js';
import { formatNumber } from './table.js';

// Runs one scenario: A/B interleaved rounds (Flotilla then reference, then the other way round),
// with each side's server and load-generator CPU beside the measure.

export type RoundResult = { flotilla: Measure; reference: Measure | undefined };

export type ScenarioOutcome = {
  id: string;
  rounds: RoundResult[];
  summaries: RowSummary[];
  // Request errors beyond the tolerance, or a failed check: the run exits non-zero.
  problems: string[];
};

// Failed requests tolerated per measured request (a reset connection in a long run).
const errorTolerance = 0.001;

const cpuPercent = (cpuMs: number, wallMs: number): number =>
  wallMs > 0 ? (100 * cpuMs) / wallMs : Number.NaN;

const measured = async (
  scenario: Scenario,
  side: Side,
  env: BenchEnv,
  window: Window,
): Promise<Measure> => {
  const server =
    side === 'flotilla'
      ? (scenario.flotillaServer?.(env) ?? env.flotilla)
      : (scenario.referenceServer?.(env) ?? env.reference);
  const [serverBefore, loadBefore] = [await server.cpuMillis(), await env.load.cpuMillis()];
  const began = performance.now();
  const measure = await scenario.measure(side, env, window);
  const wallMs = performance.now() - began;
  const [serverAfter, loadAfter] = [await server.cpuMillis(), await env.load.cpuMillis()];
  return {
    ...measure,
    metrics: {
      ...measure.metrics,
      // Over warm-up and window alike; the memory scenario's fresh servers are not counted.
      serverCpuPercent: cpuPercent(serverAfter - serverBefore, wallMs),
      loadCpuPercent: cpuPercent(loadAfter - loadBefore, wallMs),
    },
  };
};

const describe = (scenario: Scenario, measure: Measure): string => {
  const row = scenario.rows[0];
  const main = row ? formatNumber(measure.metrics[row.metric] ?? Number.NaN, row.unit) : '';
  const p99 = measure.metrics.p99Ms;
  const latency = row?.metric !== 'p99Ms' && p99 !== undefined && Number.isFinite(p99);
  const cpu = `server ${Math.round(measure.metrics.serverCpuPercent ?? Number.NaN)}%, load ${Math.round(measure.metrics.loadCpuPercent ?? Number.NaN)}% CPU`;
  const errors = measure.errors > 0 ? `, ${measure.errors} errors` : '';
  return `${main}${latency ? ` p99 ${formatNumber(p99, 'ms')}` : ''} (${cpu}${errors})`;
};

const tooManyErrors = (side: Side, measure: Measure): string | undefined =>
  measure.errors > Math.max(0, measure.requests * errorTolerance)
    ? `${side}: ${measure.errors} failed of ${measure.requests + measure.errors}, first: ${measure.firstError ?? '?'}`
    : undefined;

export const runScenario = async (
  scenario: Scenario,
  env: BenchEnv,
  window: Window,
): Promise<ScenarioOutcome> => {
  const rounds: RoundResult[] = [];
  const problems: string[] = [];
  const hasReference = scenario.hasReference ?? true;
  for (let round = 0; round < env.options.rounds; round++) {
    const order: Side[] = round % 2 === 0 ? ['flotilla', 'reference'] : ['reference', 'flotilla'];
    const results: Partial<Record<Side, Measure>> = {};
    for (const side of order) {
      if (side === 'reference' && !hasReference) continue;
      const measure = await measured(scenario, side, env, window);
      results[side] = measure;
      const problem = tooManyErrors(side, measure);
      if (problem) problems.push(problem);
    }
    const flotilla = results.flotilla;
    if (!flotilla) throw new Error('no Flotilla measure');
    rounds.push({ flotilla, reference: results.reference });
    env.log(
      `  ${scenario.id} round ${round + 1}/${env.options.rounds}: Flotilla ${describe(scenario, flotilla)}` +
        (results.reference ? ` | reference ${describe(scenario, results.reference)}` : ''),
    );
  }
  const summaries = scenario.rows.map((row) =>
    summarizeRow(
      row,
      rounds.map((round): RoundValues => ({
        flotilla: round.flotilla.metrics[row.metric] ?? Number.NaN,
        reference: round.reference?.metrics[row.metric] ?? Number.NaN,
      })),
    ),
  );
  return { id: scenario.id, rounds, summaries, problems };
};
