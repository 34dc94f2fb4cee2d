import { type BuildBench, startBuildBench } from './image-build-bench.js';
import type { Measure, Scenario } from './scenario.js';

// An image build through Flotilla's builder (upload, unpack, each service's context packed
// again, built, pushed, recorded) next to Debian's docker CLI building and pushing the same
// contexts on the same engine (image-build-bench.ts). Skipped, saying why, when dockerd cannot
// run here.

let bench: BuildBench | undefined;

const notMeasured: Measure = {
  metrics: { opsPerSecond: Number.NaN, p50Ms: Number.NaN, p99Ms: Number.NaN, buildMs: Number.NaN },
  requests: 0,
  errors: 0,
  firstError: undefined,
};

export const imageBuildScenario: Scenario = {
  id: 'image-build',
  rows: [
    {
      name: 'image build, 2 services from scratch (built and pushed)',
      metric: 'buildMs',
      unit: 'ms',
      goal: { kind: 'ratio', better: 'lower', target: 1.2 },
      goalText: '≤ 1.2× docker build + push',
    },
  ],
  async prepare(env) {
    const started = await startBuildBench(env);
    if (typeof started === 'string') {
      env.log(`image-build: skipped, ${started}`);
      return;
    }
    bench = started;
    // One build of each side first: the engine's base layers and the server's code are warm.
    await bench.build('flotilla');
    await bench.build('reference');
  },
  async measure(side) {
    if (bench === undefined) return notMeasured;
    const ms = await bench.build(side);
    return {
      metrics: { opsPerSecond: 1000 / ms, p50Ms: ms, p99Ms: Number.NaN, buildMs: ms },
      requests: 1,
      errors: 0,
      firstError: undefined,
    };
  },
  async cleanUp() {
    await bench?.stop();
    bench = undefined;
  },
};
