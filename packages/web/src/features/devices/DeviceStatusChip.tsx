import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Tooltip from '@mui/material/Tooltip';
import { statusColor, statusLabel } from '../../device/device-format.js';

// The overall status, with a progress bar while the device updates or configures, and a
// "Cannot run release" mark (why, in its tooltip) for a device that cannot run its fleet's release
// however online it is.
export const DeviceStatusChip = ({
  status,
  progress,
  blocker = null,
}: {
  status: string;
  progress: number | null;
  blocker?: string | null;
}) => {
  const label = statusLabel(status);
  return (
    <Box sx={{ minWidth: 110 }}>
      <Chip
        size="small"
        variant="outlined"
        color={statusColor(status)}
        label={progress === null ? label : `${label} ${progress}%`}
      />
      {progress === null ? null : (
        <LinearProgress
          variant="determinate"
          value={Math.min(100, Math.max(0, progress))}
          aria-label={`${label} progress`}
          sx={{ mt: 0.5, maxWidth: 120 }}
        />
      )}
      {blocker === null ? null : (
        <Tooltip title={blocker}>
          <Chip
            size="small"
            color="warning"
            label="Cannot run release"
            aria-description={blocker}
            sx={{ mt: 0.5, display: 'flex', width: 'fit-content' }}
          />
        </Tooltip>
      )}
    </Box>
  );
};
