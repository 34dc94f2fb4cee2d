import { localModeVariableNames } from '../permissions/field-permissions.js';

// Local mode: "enabled only if supervisor version is 4 or later, OS is not
// 1.x and variant is dev". The server refuses to turn it on for other devices and the console
// says why; constants of section 9 ("local mode needs supervisor 4 or later").

export const localModeMinimumSupervisorMajor = 4;

export const localModeMessages = {
  notProvisioned: 'Local mode needs a device that has reported its supervisor version',
  oldSupervisor: `Local mode needs supervisor version ${localModeMinimumSupervisorMajor} or later`,
  oldOs: 'Local mode is not available on OS version 1.x',
  notDev: 'Local mode is only available on development OS variants',
} as const;

export type LocalModeDevice = {
  supervisor_version: string | null;
  os_version: string | null;
  os_variant: string | null;
};

const majorOf = (version: string | null): number | null => {
  const match = /(\d+)\.\d+/.exec(version ?? '');
  return match ? Number(match[1]) : null;
};

// Older OS versions carried the variant in the version string ("2.0.0 (dev)", "2.9.7+rev1.dev").
const isDevelopmentVariant = (device: LocalModeDevice): boolean => {
  if (device.os_variant !== null && device.os_variant !== '') return device.os_variant === 'dev';
  return /\(dev\)|\.dev\b/.test(device.os_version ?? '');
};

// Why local mode cannot be turned on for the device, or null when it can.
export const localModeBlock = (device: LocalModeDevice): string | null => {
  const supervisor = majorOf(device.supervisor_version);
  if (supervisor === null) return localModeMessages.notProvisioned;
  if (supervisor < localModeMinimumSupervisorMajor) return localModeMessages.oldSupervisor;
  if (majorOf(device.os_version) === 1) return localModeMessages.oldOs;
  if (!isDevelopmentVariant(device)) return localModeMessages.notDev;
  return null;
};

export const isLocalModeVariable = (name: string): boolean =>
  (localModeVariableNames as readonly string[]).includes(name);

// balena-supervisor's boolean parsing of config values.
export const isTruthyConfigValue = (value: string): boolean =>
  value === '1' || value.toLowerCase() === 'true' || value.toLowerCase() === 'on';

// Whether a device's configuration variables (the local-mode ones at least) turn local mode on.
export const isInLocalMode = (variables: readonly { name: string; value: string }[]): boolean =>
  variables.some(
    (variable) => isLocalModeVariable(variable.name) && isTruthyConfigValue(variable.value),
  );
