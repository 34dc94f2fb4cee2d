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

export type OsUpdateProgress = { text: string; failed: boolean };

const stepPrefix = 'OS update: ';

// "Updating OS to 6.1.0", with the step and progress the device reports while it updates
// ("OS update: downloading balenaOS 6.1.0", 40), or the failure it reports (it then keeps its
// version and does not retry that release by itself).
export const osUpdateProgress = (
  release: HostReleaseRef,
  device: { provisioning_state: string | null; provisioning_progress: number | null },
): OsUpdateProgress => {
  // A failed supervisor update is the supervisor's line, not a step of this one.
  const reported = device.provisioning_state ?? '';
  const state = reported.startsWith('Supervisor update') ? '' : reported;
  if (/^OS update\b.*\bfailed\b/.test(state)) return { text: state, failed: true };
  const step = state.startsWith(stepPrefix) ? state.slice(stepPrefix.length) : state;
  const progress =
    device.provisioning_progress === null ? '' : ` (${device.provisioning_progress}%)`;
  return {
    text: `Updating OS to ${release.raw_version}${step ? `: ${step}` : ''}${progress}`,
    failed: false,
  };
};

// A supervisor update the device reported failed ("Supervisor update to 17.3.0 failed: …; rolled
// back to 17.2.0"), for the release it should run: the failure, not "Updating supervisor to"
// for ever. Null while the update may still come.
export const supervisorUpdateFailure = (
  release: HostReleaseRef,
  provisioningState: string | null,
): string | null => {
  const match = /^Supervisor update to (\S+) failed: /.exec(provisioningState ?? '');
  const failed = parseOsVersion(match?.[1] ?? null);
  const wanted = parseOsVersion(release.raw_version);
  if (failed === null || wanted === null) return null;
  return compareOsVersions(failed, wanted) === 0 ? (provisioningState ?? null) : null;
};
