import { queryRoots } from '../../api/query-roots.js';
import type { OverrideTarget } from './variable-model.js';

// Every variables query lives under the variables root, so applying staged edits refreshes the
// fleet's and its devices' tables alike. A device type's naming rules and schema come from the
// server's configuration, so they live under the config root and are not refetched by an apply.
export const variableKeys = {
  all: queryRoots.variables,
  fleet: (fleetId: number) => [...queryRoots.variables, 'fleet', fleetId] as const,
  fleetEnvironment: (fleetId: number, releaseId: number | null) =>
    [...queryRoots.variables, 'fleet', fleetId, 'environment', releaseId] as const,
  fleetConfig: (fleetId: number) => [...queryRoots.variables, 'fleet', fleetId, 'config'] as const,
  fleetAgentProfiles: (fleetId: number) =>
    [...queryRoots.variables, 'fleet', fleetId, 'agent-profiles'] as const,
  device: (deviceId: number) => [...queryRoots.variables, 'device', deviceId] as const,
  overrides: (fleetId: number, target: OverrideTarget) =>
    [...queryRoots.variables, 'overrides', fleetId, target] as const,
  configVars: (deviceType: string) => [...queryRoots.config, 'vars', deviceType] as const,
};
