import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import { statusColor, statusLabel } from '../../device/device-format.js';

// The overall status, with a progress bar while the device updates or configures.
export const DeviceStatusChip = ({
  status,
  progress,
}: {
  status: string;
  progress: number | null;
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
    </Box>
  );
};
