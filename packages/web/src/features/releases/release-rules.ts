import {
  effectiveReleaseStatus,
  isFailedStatus,
  releaseRuleMessages,
  releaseStatusLabel as statusLabelOf,
  type ReleaseTimes,
  threeDigitSemver,
} from '@flotilla/shared/releases/release-status';

// The release actions' availability, each as null when allowed or
// the reason shown on the disabled control. The server enforces the same rules.

export type ReleaseState = ReleaseTimes & {
  is_final: boolean;
  is_invalidated: boolean;
  // Fleets that should run the release and devices pinned to it.
  targetedByFleets: number;
  pinnedDevices: number;
};

export type ReleaseGrants = {
  // Why the user may not update or delete releases, or null (the shared permission table).
  updateDenied: string | null;
  deleteDenied: string | null;
};

export type ReleaseActions = {
  editVersion: string | null;
  toggleValidity: string | null;
  finalize: string | null;
  // Stops a running build (the server's builder stops it on its engine).
  cancelBuild: string | null;
  delete: string | null;
};

export const onlyRunningCancelled = 'Only a running build can be cancelled';

export const releaseActions = (
  release: ReleaseState,
  grants: ReleaseGrants,
  now: Date,
): ReleaseActions => {
  const status = effectiveReleaseStatus(release, now);
  return {
    editVersion: grants.updateDenied,
    toggleValidity:
      grants.updateDenied ??
      (isFailedStatus(status) ? releaseRuleMessages.cannotValidateFailed : null),
    finalize:
      grants.updateDenied ?? (release.is_final ? releaseRuleMessages.alreadyFinalized : null),
    cancelBuild: grants.updateDenied ?? (status === 'running' ? null : onlyRunningCancelled),
    delete:
      grants.deleteDenied ??
      (release.targetedByFleets > 0 || release.pinnedDevices > 0
        ? releaseRuleMessages.cannotDeletePinned
        : null),
  };
};

// The status as the console shows it: a stale running build is a timeout, shown as failed.
export const releaseStatusLabel = (release: ReleaseTimes, now: Date): string =>
  statusLabelOf(effectiveReleaseStatus(release, now));

// The version edit takes three-digit semver only; null when valid.
export const versionError = (text: string): string | null =>
  threeDigitSemver.test(text.trim())
    ? null
    : 'Enter a version of three numbers such as 1.2.3 (no pre-release or build suffix)';

// The releases page offers two ways to a release; each button says which it is.
export const createHint =
  'Build a release on this server from a project archive you upload or link to';
export const addHint = 'Show the balena CLI commands that push a release from your computer';
