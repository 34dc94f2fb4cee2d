import { performance } from 'node:perf_hooks';
import { connectFakeDevice, type FakeDevice } from '../src/test-support/fake-device-client.js';
import { createHistogram, percentileMillis, recordMillis } from './histogram.js';
import type { Measure } from './scenario.js';

// Idle websockets held by the load generator (the memory scenario): opened as cloudlink clients
// (the bare ws reference ignores the hello), kept until closeSockets().

const open: FakeDevice[] = [];

export const openSockets = async (
  baseUrl: string,
  keys: readonly string[],
  uuids: readonly string[],
  concurrency: number,
): Promise<Measure> => {
  const histogram = createHistogram();
  let failed = 0;
  let firstError: string | undefined;
  let next = 0;
  const began = performance.now();
  const worker = async (): Promise<void> => {
    for (;;) {
      const index = next++;
      const key = keys[index];
      if (key === undefined) return;
      const start = performance.now();
      try {
        open.push(await connectFakeDevice(baseUrl, key, { uuid: uuids[index] ?? '' }));
        recordMillis(histogram, performance.now() - start);
      } catch (error) {
        failed += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  const elapsedMs = performance.now() - began;
  return {
    metrics: {
      opsPerSecond: (histogram.total * 1000) / elapsedMs,
      p50Ms: percentileMillis(histogram, 50),
      p99Ms: percentileMillis(histogram, 99),
      opened: histogram.total,
    },
    requests: histogram.total,
    errors: failed,
    firstError,
  };
};

export const closeSockets = async (): Promise<Measure> => {
  const count = open.length;
  await Promise.all(open.splice(0).map((device) => device.close()));
  return {
    metrics: { opsPerSecond: Number.NaN, p50Ms: Number.NaN, p99Ms: Number.NaN, closed: count },
    requests: count,
    errors: 0,
    firstError: undefined,
  };
};
