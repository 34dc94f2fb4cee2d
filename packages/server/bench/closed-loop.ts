import { performance } from 'node:perf_hooks';
import { createHistogram, percentileMillis, recordMillis } from './histogram.js';
import type { Measure, Window } from './scenario.js';

// A closed loop: `concurrency` workers run `op` back to back for the warm-up plus the measured
// window. Only operations that start inside the window are recorded, so connection set-up and
// JIT warm-up stay out of the numbers; throughput is over the window's start to the last
// recorded completion (operations in flight at the end are allowed to finish).

const describe = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).slice(0, 300);

export const runClosedLoop = async (
  op: () => Promise<void>,
  concurrency: number,
  window: Window,
): Promise<Measure> => {
  const start = performance.now();
  const windowStart = start + window.warmupMs;
  const windowEnd = windowStart + window.durationMs;
  const histogram = createHistogram();
  let errors = 0;
  let firstError: string | undefined;
  let lastFinish = windowStart;

  const worker = async (): Promise<void> => {
    while (performance.now() < windowEnd) {
      const begun = performance.now();
      let failed = false;
      try {
        await op();
      } catch (error) {
        failed = true;
        if (begun >= windowStart) {
          errors += 1;
          firstError ??= describe(error);
        }
      }
      const finished = performance.now();
      if (begun < windowStart) continue;
      if (!failed) recordMillis(histogram, finished - begun);
      lastFinish = Math.max(lastFinish, finished);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  const elapsedMs = lastFinish - windowStart;
  return {
    metrics: {
      opsPerSecond: elapsedMs > 0 ? (histogram.total * 1000) / elapsedMs : Number.NaN,
      p50Ms: percentileMillis(histogram, 50),
      p99Ms: percentileMillis(histogram, 99),
    },
    requests: histogram.total,
    errors,
    firstError,
  };
};
