import { performance } from 'node:perf_hooks';

// A closed-loop load generator: `concurrency` workers each run the task back to back for the
// warm-up plus the measured window. Only tasks that start inside the window are recorded, so
// warm-up effects (JIT, plan caches, connection setup) stay out of the numbers.

export type LoadOptions = {
  warmupMs: number;
  durationMs: number;
  concurrency: number;
};

export type LoadStats = {
  requests: number;
  errors: number;
  firstError: string | undefined;
  elapsedMs: number;
  requestsPerSecond: number;
  meanMs: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
};

// Nearest-rank percentile of an ascending array (p in 0..100).
export const percentile = (sorted: readonly number[], p: number): number => {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] ?? Number.NaN;
};

export const summarize = (
  latencies: readonly number[],
  elapsedMs: number,
  errors: number,
  firstError: string | undefined,
): LoadStats => {
  const sorted = [...latencies].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    requests: sorted.length,
    errors,
    firstError,
    elapsedMs,
    requestsPerSecond: elapsedMs > 0 ? (sorted.length * 1000) / elapsedMs : 0,
    meanMs: sorted.length > 0 ? total / sorted.length : Number.NaN,
    p50Ms: percentile(sorted, 50),
    p90Ms: percentile(sorted, 90),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
  };
};

const describe = (error: unknown): string =>
  error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300);

export const runLoad = async (
  task: () => Promise<void>,
  options: LoadOptions,
): Promise<LoadStats> => {
  const start = performance.now();
  const windowStart = start + options.warmupMs;
  const windowEnd = windowStart + options.durationMs;
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let lastFinish = windowStart;

  const worker = async (): Promise<void> => {
    for (;;) {
      const begun = performance.now();
      if (begun >= windowEnd) return;
      let failed = false;
      try {
        await task();
      } catch (error) {
        failed = true;
        if (begun >= windowStart) {
          errors += 1;
          firstError ??= describe(error);
        }
      }
      const finished = performance.now();
      if (begun >= windowStart) {
        if (!failed) latencies.push(finished - begun);
        lastFinish = Math.max(lastFinish, finished);
      }
    }
  };

  await Promise.all(Array.from({ length: options.concurrency }, () => worker()));
  // Throughput over the span from the window's start to the last recorded completion (which
  // runs slightly past windowEnd: in-flight work is allowed to finish).
  return summarize(latencies, lastFinish - windowStart, errors, firstError);
};
