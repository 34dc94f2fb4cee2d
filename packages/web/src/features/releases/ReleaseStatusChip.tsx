import {
  effectiveReleaseStatus,
  releaseStatusLabel,
  type ReleaseTimes,
  type StatusGroup,
  statusGroupOf,
} from '@flotilla/shared/releases/release-status';
import Chip from '@mui/material/Chip';

const colors: Record<StatusGroup, 'success' | 'info' | 'error' | 'default'> = {
  success: 'success',
  running: 'info',
  failed: 'error',
  cancelled: 'default',
  local: 'default',
};

// A release's build status: a running build silent for 120 minutes shows as
// failed (timeout).
export const ReleaseStatusChip = ({ release, now }: { release: ReleaseTimes; now: Date }) => {
  const status = effectiveReleaseStatus(release, now);
  return (
    <Chip size="small" color={colors[statusGroupOf(status)]} label={releaseStatusLabel(status)} />
  );
};
