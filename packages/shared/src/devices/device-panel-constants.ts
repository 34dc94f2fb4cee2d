// Constants of the device page's logs, terminal and diagnostics.

// Lines the logs panel keeps; older ones are dropped as new ones arrive.
export const logBufferLines = 5000;
// "No logs yet" when nothing arrived this long after the stream opened.
export const noLogsAfterMs = 3000;
// The service filter is applied at most this often while typing.
export const logFilterThrottleMs = 500;
// A broken log stream is opened again after this long, or the longer delay after a network
// error or a 503.
export const logReconnectMs = 1000;
export const logReconnectSlowMs = 10_000;
// History lines a subscription starts with: 100, none on a reconnect.
export const logInitialLines = 100;

// A dropped terminal session is opened again this many times, this far apart, then fails.
export const terminalReconnectAttempts = 5;
export const terminalReconnectDelayMs = 2000;

// While a run is in progress its result is read again this often.
export const healthChecksRefreshMs = 15_000;
export const diagnosticsRefreshMs = 5000;
// Health checks and diagnostics need balenaOS 2.11.0 or later (older devices get a warning).
export const minimumChecksOsVersion = '2.11.0';
// Host OS terminals need balenaOS 2.0.0 or later (the version balena's /access/v1/hostos
// checks). Platform administrators
// and support agents are not held to it.
export const minimumHostOsAccessVersion = '2.0.0';

const versionParts = (text: string): number[] | null => {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
};

// Whether a device's OS version ("balenaOS 2.88.4+rev1", "2.11.0") is below `minimum`. An
// unknown or unreadable version gets the benefit of the doubt.
export const osVersionBelow = (osVersion: string | null, minimum: string): boolean => {
  const parts = versionParts(osVersion ?? '');
  const floor = versionParts(minimum) ?? [];
  if (!parts) return false;
  for (let index = 0; index < 3; index++) {
    const difference = (parts[index] ?? 0) - (floor[index] ?? 0);
    if (difference !== 0) return difference < 0;
  }
  return false;
};

// Supervisors before 13.0.0 read their target state in the v2 shape (GET /device/v2/:uuid/state);
// newer ones in v3. A device whose supervisor version is unknown gets v3.
export const targetStateV3SupervisorVersion = '13.0.0';
export type TargetStateApiVersion = 'v2' | 'v3';
export const targetStateApiVersion = (supervisorVersion: string | null): TargetStateApiVersion =>
  osVersionBelow(supervisorVersion, targetStateV3SupervisorVersion) ? 'v2' : 'v3';

// Downloads: {uuid}_checks_{timestamp}.json, {uuid}_diagnostics_{timestamp}.txt, and a log file
// named from the fleet, the device and the time.
const fileTimestamp = (at: Date): string => at.toISOString().replace(/[:.]/g, '-');
const fileSafe = (text: string): string => text.replace(/[^\w.-]+/g, '_');

export const checksFileName = (uuid: string, at: Date): string =>
  `${uuid}_checks_${fileTimestamp(at)}.json`;
export const diagnosticsFileName = (uuid: string, at: Date): string =>
  `${uuid}_diagnostics_${fileTimestamp(at)}.txt`;
export const logsFileName = (fleetName: string, deviceName: string, at: Date): string =>
  `${fileSafe(fleetName)}_${fileSafe(deviceName)}_${fileTimestamp(at)}.log`;
