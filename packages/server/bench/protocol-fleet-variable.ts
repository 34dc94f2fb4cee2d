import { type FleetVariableResult, measureFleetVariableChange } from './scenario-fleet-variable.js';
import type { ProtocolDevice, ProtocolEnv, ProtocolResult } from './protocol-types.js';

// The fleet variable change (scenario-fleet-variable.ts) as rows of the device protocol table.

const pct = (share: number): string => `${(100 * share).toFixed(0)}%`;

const row = (name: string, ms: number, notes: string, details: Record<string, number>) => ({
  name,
  unit: 'req/s' as const,
  rate: Number.NaN,
  p50Ms: ms,
  p99Ms: ms,
  notes,
  errors: 0,
  firstError: undefined,
  details,
});

export const fleetVariableChange = async (
  env: ProtocolEnv,
  devices: readonly ProtocolDevice[],
): Promise<ProtocolResult[]> => {
  const result: FleetVariableResult = await measureFleetVariableChange({
    baseUrl: env.baseUrl,
    sql: env.sql,
    devices,
  });
  const { before, after } = result;
  return [
    row(
      'fleet variable change (one POST)',
      result.applyMs,
      `fleet of ${result.changedFleet.total} devices (${result.changedFleet.devices} polling), ` +
        `${result.deviceRowsWritten} device rows written` +
        (result.applySmallFleetMs === null || result.smallFleet === null
          ? ''
          : `; ${result.applySmallFleetMs.toFixed(1)} ms on a fleet of ${result.smallFleet.devices}`),
      {
        applyMs: result.applyMs,
        applySmallFleetMs: result.applySmallFleetMs ?? Number.NaN,
        fleetDevices: result.changedFleet.total,
        deviceRowsWritten: result.deviceRowsWritten,
      },
    ),
    row(
      'target-state 304 share around it',
      Number.NaN,
      `that fleet ${pct(before.changedFleet.share304)} → ${pct(after.changedFleet.share304)}, ` +
        `other fleets ${pct(before.otherFleets.share304)} → ${pct(after.otherFleets.share304)}`,
      {
        changedBefore304: before.changedFleet.share304,
        changedAfter304: after.changedFleet.share304,
        otherBefore304: before.otherFleets.share304,
        otherAfter304: after.otherFleets.share304,
      },
    ),
  ];
};
