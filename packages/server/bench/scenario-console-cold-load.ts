import { runConsoleColdLoad } from './console-cold-load.js';
import type { Scenario } from './scenario.js';

// The console's cold load: the fleet list of a signed-in member in a fresh
// headless Chromium with the HTTP cache disabled, next to a static file of the same server loaded
// the same way (the floor any page pays). Flotilla alone: the static file is its own reference.
// The goal (300 ms) is stated for an idle machine.

const roundsPerMeasure = 3;

export const consoleColdLoadScenario: Scenario = {
  id: 'console-cold-load',
  hasReference: false,
  rows: [
    {
      name: 'console cold load, fleet list (median)',
      metric: 'fleetListMs',
      unit: 'ms',
      goal: { kind: 'absolute', better: 'lower', target: 300 },
      goalText: '≤ 300 ms on an idle machine',
    },
    {
      name: 'console cold load, static file of the same server',
      metric: 'staticMs',
      unit: 'ms',
      goal: { kind: 'none' },
      goalText: 'the floor',
    },
  ],
  async measure(_side, env) {
    const [fleetList, staticPage] = await runConsoleColdLoad({
      baseUrl: env.flotilla.url,
      token: env.tokens.member,
      fleetCount: env.seed.memberFleetIds.length,
      rounds: roundsPerMeasure,
      log: env.log,
    });
    return {
      metrics: {
        opsPerSecond: Number.NaN,
        p50Ms: fleetList?.medianMs ?? Number.NaN,
        p99Ms: Number.NaN,
        fleetListMs: fleetList?.medianMs ?? Number.NaN,
        staticMs: staticPage?.medianMs ?? Number.NaN,
      },
      requests: fleetList ? roundsPerMeasure : 0,
      errors: 0,
      firstError: undefined,
    };
  },
};
