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

// Runs `next()`'s tasks back to back on `concurrency` workers for the warm-up plus the measured
// window, or until `next()` has nothing left. Only tasks that start inside the window count.
const runWorkers = async (
  next: () => (() => Promise<void>) | undefined,
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
      const task = next();
      if (!task) return;
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

export const runLoad = (task: () => Promise<void>, options: LoadOptions): Promise<LoadStats> =>
  runWorkers(() => task, options);

// Each item once, in order, while the window lasts (e.g. every device's first poll). With no
// warm-up the window starts at once, so every item that is handled is measured.
export const runEach = <T>(
  items: readonly T[],
  task: (item: T) => Promise<void>,
  options: LoadOptions,
): Promise<LoadStats> => {
  let index = 0;
  return runWorkers(() => {
    const item = items[index];
    if (item === undefined) return undefined;
    index += 1;
    return () => task(item);
  }, options);
};
