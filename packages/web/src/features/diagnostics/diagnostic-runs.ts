import {
  diagnosticsRefreshMs,
  healthChecksRefreshMs,
  minimumChecksOsVersion,
  osVersionBelow,
} from '@flotilla/shared/devices/device-panel-constants';
import type { DiagnosticAction, DiagnosticRun } from '@flotilla/shared/diagnostics/diagnostics';

// While a run is in progress its result is read again: checks every 15 s, diagnostics every 5 s
// (a diagnostics run is short and the user waits for it); otherwise not at all.
export const refreshInterval = (
  action: DiagnosticAction,
  run: DiagnosticRun | null | undefined,
): number | false => {
  if (run?.status !== 'in_progress' && run?.status !== 'configuring') return false;
  return action === 'checks' ? healthChecksRefreshMs : diagnosticsRefreshMs;
};

// Checks need balenaOS 2.11.0 or later; an unknown version gets the benefit of the doubt.
export const osTooOldForChecks = (osVersion: string | null): boolean =>
  osVersionBelow(osVersion, minimumChecksOsVersion);
