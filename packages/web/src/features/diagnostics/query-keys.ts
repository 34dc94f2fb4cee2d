import type { TargetStateApiVersion } from '@flotilla/shared/devices/device-panel-constants';
import type { DiagnosticAction } from '@flotilla/shared/diagnostics/diagnostics';
import { queryRoots } from '../../api/query-roots.js';

// A device's runs and states live under the diagnostics root, apart from the device data: they
// are read on demand and never refreshed by device actions.
export const diagnosticsKeys = {
  all: queryRoots.diagnostics,
  run: (uuid: string, action: DiagnosticAction) =>
    [...queryRoots.diagnostics, uuid, action] as const,
  currentState: (uuid: string) => [...queryRoots.diagnostics, uuid, 'current-state'] as const,
  targetState: (uuid: string, version: TargetStateApiVersion) =>
    [...queryRoots.diagnostics, uuid, 'target-state', version] as const,
};
