import { measureFleetVariableChange } from './scenario-fleet-variable.js';
import type { Scenario } from './scenario.js';

// Issue 11 "Devices follow": one fleet variable change on the fleet with the most devices writes
// no device row, and only that fleet's devices lose their 304 on the next poll. Flotilla alone
// (the reference has no target state). It runs after the poll and state-report scenarios: it
// changes the target state of a fleet.

export const fleetVariableChangeScenario: Scenario = {
  id: 'fleet-variable',
  hasReference: false,
  rows: [
    {
      name: 'one fleet variable change: the write',
      metric: 'applyMs',
      unit: 'ms',
      goal: { kind: 'none' },
      goalText: 'does not grow with the fleet',
    },
    {
      name: 'one fleet variable change: device rows written',
      metric: 'deviceRowsWritten',
      unit: 'rows',
      goal: { kind: 'absolute', better: 'lower', target: 0 },
      goalText: 'no per-device write',
    },
    {
      name: 'one fleet variable change: 304 share after, changed fleet',
      metric: 'changedShareAfter',
      unit: '%',
      goal: { kind: 'absolute', better: 'lower', target: 0 },
      goalText: 'every device gets a new ETag',
    },
    {
      name: 'one fleet variable change: 304 share after, other fleets',
      metric: 'otherShareAfter',
      unit: '%',
      goal: { kind: 'absolute', better: 'higher', target: 100 },
      goalText: 'other fleets keep their 304',
    },
  ],
  async measure(_side, env) {
    const result = await measureFleetVariableChange({
      baseUrl: env.flotilla.url,
      sql: env.db,
      devices: env.devices,
      log: env.log,
    });
    const polls = result.after.changedFleet.polls + result.after.otherFleets.polls;
    return {
      metrics: {
        opsPerSecond: Number.NaN,
        p50Ms: result.applyMs,
        p99Ms: Number.NaN,
        applyMs: result.applyMs,
        deviceRowsWritten: result.deviceRowsWritten,
        changedShareAfter: result.after.changedFleet.share304 * 100,
        otherShareAfter: result.after.otherFleets.share304 * 100,
      },
      requests: polls,
      errors: 0,
      firstError: undefined,
    };
  },
};
