// Removing a member is blocked with a message listing devices needing an
// update when supervisor or OS is too old. Devices on a supervisor from before per-device keys,
// or on a 1.x OS, talk to the API with the credentials of the user who provisioned them, so
// removing that user from the fleet would cut those devices off. Flotilla's reading of "too old":
// a supervisor below 7.0.0 or an OS below 2.0.0 (versions not yet reported are not too old).

export const ownerCredentialsMinimumSupervisor = '7.0.0';
export const ownerCredentialsMinimumOs = '2.0.0';

export type DeviceVersions = {
  supervisor_version: string | null;
  os_version: string | null;
};

// The first "major.minor.patch" in the text ("v6.4.2", "balenaOS 2.88.4+rev1", "Resin OS 1.26.0").
const parts = (version: string | null): readonly [number, number, number] | null => {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(version ?? '');
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
};

const isBelow = (version: string | null, minimum: string): boolean => {
  const have = parts(version);
  const want = parts(minimum);
  if (have === null || want === null) return false;
  for (let index = 0; index < 3; index++) {
    if (have[index] !== want[index]) return (have[index] ?? 0) < (want[index] ?? 0);
  }
  return false;
};

export const usesOwnerCredentials = (device: DeviceVersions): boolean =>
  isBelow(device.supervisor_version, ownerCredentialsMinimumSupervisor) ||
  isBelow(device.os_version, ownerCredentialsMinimumOs);

// The refusal, in our words, naming at most `shown` devices.
export const memberRemovalBlockedMessage = (
  username: string,
  deviceNames: readonly string[],
  shown = 10,
): string => {
  const listed = deviceNames.slice(0, shown).join(', ');
  const more = deviceNames.length > shown ? ` and ${deviceNames.length - shown} more` : '';
  return (
    `${username} cannot be removed yet: these devices they provisioned need an update ` +
    `(supervisor ${ownerCredentialsMinimumSupervisor} or later and OS ${ownerCredentialsMinimumOs} ` +
    `or later) so they stop using ${username}'s credentials: ${listed}${more}`
  );
};
