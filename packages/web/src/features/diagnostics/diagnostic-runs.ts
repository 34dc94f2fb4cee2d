import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { FlotillaApiError } from '@flotilla/sdk/errors';
import {
  diagnosticsRefreshMs,
  healthChecksRefreshMs,
  minimumChecksOsVersion,
  osVersionBelow,
} from '@flotilla/shared/devices/device-panel-constants';
import { actionsServicePath } from '@flotilla/shared/diagnostics/actions-service';
import type { DiagnosticAction, DiagnosticRun } from '@flotilla/shared/diagnostics/diagnostics';

export const diagnosticRunKey = (uuid: string, action: DiagnosticAction) =>
  ['diagnostics', uuid, action] as const;

const runPath = (uuid: string, run: string): string =>
  `${actionsServicePath}/v1/${encodeURIComponent(uuid)}/${run}`;

// The newest run of the action, or null when none ran yet (the service answers 404).
export const fetchLatestRun = async (
  client: FlotillaClient,
  uuid: string,
  action: DiagnosticAction,
): Promise<DiagnosticRun | null> => {
  try {
    return await client.request<DiagnosticRun>({ path: runPath(uuid, action) });
  } catch (error) {
    if (error instanceof FlotillaApiError && error.status === 404) return null;
    throw error;
  }
};

export const startRun = (
  client: FlotillaClient,
  uuid: string,
  action: DiagnosticAction,
): Promise<DiagnosticRun> =>
  client.request<DiagnosticRun>({ method: 'POST', path: runPath(uuid, action), body: {} });

// While a run is in progress its result is read again: checks every 15 s, diagnostics every 5 s
// (seed 001 section 9); otherwise not at all.
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
