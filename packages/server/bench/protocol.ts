import { performance } from 'node:perf_hooks';
import { cloudlinkMemory } from './protocol-cloudlink.js';
import { createDeviceKeys } from './protocol-devices.js';
import { fleetVariableChange } from './protocol-fleet-variable.js';
import { integer } from './protocol-helpers.js';
import { logIngest } from './protocol-log-ingest.js';
import { stateReports } from './protocol-state-report.js';
import { targetStatePolls } from './protocol-target-state.js';
import type { ProtocolDevice, ProtocolEnv, ProtocolResult } from './protocol-types.js';

// The device protocol (issue 4): thousands of simulated devices, each with its own device API
// key, against the one in-process server. These scenarios have no hand-written SQL twin: they
// report throughput and latency of the device-facing routes on their own.

type ProtocolScenario = {
  name: string;
  run: (env: ProtocolEnv, devices: readonly ProtocolDevice[]) => Promise<ProtocolResult[]>;
};

const protocolScenarios: ProtocolScenario[] = [
  { name: 'state report', run: async (env, devices) => [await stateReports(env, devices)] },
  { name: 'target-state poll', run: targetStatePolls },
  { name: 'fleet variable', run: fleetVariableChange },
  { name: 'log stream', run: async (env, devices) => [await logIngest(env, devices)] },
  { name: 'cloudlink', run: async (env, devices) => [await cloudlinkMemory(env, devices)] },
];

const crashed = (name: string, error: unknown): ProtocolResult => {
  const message = error instanceof Error ? error.message : String(error);
  return {
    name,
    unit: 'req/s',
    rate: Number.NaN,
    p50Ms: Number.NaN,
    p99Ms: Number.NaN,
    notes: `FAILED: ${message.slice(0, 200)}`,
    errors: 0,
    firstError: undefined,
    failed: message,
    details: {},
  };
};

// Runs the selected protocol scenarios in order, the cloudlink last (it measures the process's
// memory, so nothing else should run meanwhile). A scenario that throws is reported as failed and
// the others still run.
export const runProtocolScenarios = async (
  env: ProtocolEnv,
  selected: (name: string) => boolean,
): Promise<ProtocolResult[]> => {
  const chosen = protocolScenarios.filter((scenario) => selected(scenario.name));
  if (chosen.length === 0) return [];
  const mark = performance.now();
  const devices = await createDeviceKeys(env.sql, env.options.devices);
  env.log(
    `Created ${integer(devices.length)} device keys in ${((performance.now() - mark) / 1000).toFixed(1)} s`,
  );
  const results: ProtocolResult[] = [];
  for (const scenario of chosen) {
    let produced: ProtocolResult[];
    try {
      produced = await scenario.run(env, devices);
    } catch (error) {
      produced = [crashed(scenario.name, error)];
    }
    for (const result of produced) {
      results.push(result);
      const rate = Number.isFinite(result.rate) ? `${result.rate.toFixed(1)} ${result.unit}` : '-';
      env.log(`  ${result.name}: ${rate}; ${result.notes}`);
    }
  }
  return results;
};
