import { effectiveReleaseStatus, isFailedStatus } from '@flotilla/shared/releases/release-status';

export type BuildState = {
  status: string;
  build_log: string | null;
  start_timestamp: string | null;
  update_timestamp: string | null;
};

// The build's status: running (a running build silent for 120 minutes has timed out), succeeded,
// or failed; a release that is gone has no status to follow.
export type Phase = 'running' | 'success' | 'failed' | 'gone';

export const phaseOf = (release: BuildState | null | undefined): Phase | undefined => {
  if (release === undefined) return undefined;
  if (release === null) return 'gone';
  const status = effectiveReleaseStatus(release, new Date());
  if (status === 'running') return 'running';
  return isFailedStatus(status) ? 'failed' : 'success';
};
