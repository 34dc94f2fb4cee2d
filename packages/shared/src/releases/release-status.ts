// Release (build) statuses and the rules on them, read by the
// server's release hooks and by the console alike.

// Statuses a release row may hold.
export const releaseStatuses = [
  'cancelled',
  'interrupted',
  'error',
  'timeout',
  'failed',
  'local',
  'running',
  'success',
] as const;

// Builds stop counting as running after this long without an update.
export const buildTimeoutMs = 120 * 60 * 1000;

// The statuses that count as a failed build: such a release can be neither validated nor
// invalidated.
export const failedReleaseStatuses: readonly string[] = [
  'failed',
  'error',
  'interrupted',
  'cancelled',
  'timeout',
];

export type ReleaseTimes = {
  status: string;
  start_timestamp: string | null;
  update_timestamp: string | null;
};

// The status a release has now: a running build whose last update (or start) is over 120
// minutes old has timed out.
export const effectiveReleaseStatus = (release: ReleaseTimes, now: Date): string => {
  if (release.status !== 'running') return release.status;
  const last = Date.parse(release.update_timestamp ?? release.start_timestamp ?? '');
  return Number.isFinite(last) && now.getTime() - last > buildTimeoutMs ? 'timeout' : 'running';
};

export const isFailedStatus = (status: string): boolean => failedReleaseStatuses.includes(status);

// The console's groups: Succeeded, Running, Failed (failed, error, timeout,
// interrupted), Cancelled and Local; an unknown status shows as succeeded.
export type StatusGroup = 'success' | 'running' | 'failed' | 'cancelled' | 'local';

export const statusGroupOf = (status: string): StatusGroup => {
  if (status === 'running' || status === 'cancelled' || status === 'local') return status;
  if (isFailedStatus(status)) return 'failed';
  return 'success';
};

export const statusGroupLabels: Record<StatusGroup, string> = {
  success: 'Succeeded',
  running: 'Running',
  failed: 'Failed',
  cancelled: 'Cancelled',
  local: 'Local',
};

// The one wording of a release status wherever the console shows it.
export const releaseStatusLabel = (status: string): string =>
  statusGroupLabels[statusGroupOf(status)];

// The rules' messages, as the server answers them and the console shows
// them before the user tries.
export const releaseRuleMessages = {
  alreadyFinalized: 'This release is already finalized: finalizing cannot be undone',
  cannotValidateFailed: 'Cannot validate or invalidate a failed release',
  cannotDeletePinned:
    'Cannot delete a release that a fleet should run or a device is pinned to: pin them to another release first',
  onlyValidPinned: 'Only valid releases can be pinned: this release is invalidated',
  onlySuccessfulPinned: 'Only successful releases can be pinned',
  otherFleet: 'A release can only be pinned within its own fleet',
  noDockerfile: 'No Dockerfile available',
} as const;

// Release version edits take three-digit semver only: 1.2.3.
export const threeDigitSemver = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})$/;
