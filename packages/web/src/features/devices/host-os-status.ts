import { compareOsVersions, parseOsVersion } from '@flotilla/shared/host-os/os-version';
import type { HostReleaseRef } from '../../device/device-rows.js';

// The release a device was told to run, when it is newer than what the device reports: the
// update it has not finished yet. The catalogue points every device at the release it runs, so
// an equal version is no update.
const pendingRelease = (
  running: string | null,
  target: readonly HostReleaseRef[],
): HostReleaseRef | null => {
  const [release] = target;
  if (release === undefined) return null;
  const wanted = parseOsVersion(release.raw_version);
  const current = parseOsVersion(running);
  if (wanted === null) return null;
  return current === null || compareOsVersions(wanted, current) > 0 ? release : null;
};

export const pendingOsUpdate = (device: {
  os_version: string | null;
  should_be_operated_by__release: readonly HostReleaseRef[];
}): HostReleaseRef | null =>
  pendingRelease(device.os_version, device.should_be_operated_by__release);

export const pendingSupervisorUpdate = (device: {
  supervisor_version: string | null;
  should_be_managed_by__release: readonly HostReleaseRef[];
}): HostReleaseRef | null =>
  pendingRelease(device.supervisor_version, device.should_be_managed_by__release);

// "Updating OS to 6.1.0", with the progress the device reports while it updates.
export const osUpdateText = (
  release: HostReleaseRef,
  device: { provisioning_state: string | null; provisioning_progress: number | null },
): string => {
  const progress =
    device.provisioning_progress === null ? '' : ` (${device.provisioning_progress}%)`;
  const state = device.provisioning_state ? `: ${device.provisioning_state}` : '';
  return `Updating OS to ${release.raw_version}${state}${progress}`;
};
