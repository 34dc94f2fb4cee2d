import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { Link as RouterLink } from 'react-router';
import { useStatus } from './api.js';
import { overallText, overallTone } from './status-presentation.js';

const dotColour = {
  success: 'success.light',
  info: 'info.light',
  warning: 'warning.light',
  error: 'error.light',
  default: 'grey.400',
} as const;

// The header's status indicator: a dot in the colour of the overall status, opening the status
// page (the external one when the installation names it). Nothing while the status is unknown.
export const StatusDot = () => {
  const status = useStatus();
  if (!status.data) return null;
  const { status: overall, externalUrl } = status.data;
  const label = `System status: ${overallText[overall]}`;
  const dot = (
    <Box
      component="span"
      sx={{
        width: 10,
        height: 10,
        borderRadius: '50%',
        bgcolor: dotColour[overallTone[overall]],
        boxShadow: '0 0 0 2px rgba(255, 255, 255, 0.6)',
      }}
    />
  );
  return (
    <Tooltip title={overallText[overall]}>
      {externalUrl === null ? (
        <IconButton color="inherit" aria-label={label} component={RouterLink} to="/status">
          {dot}
        </IconButton>
      ) : (
        <IconButton
          color="inherit"
          aria-label={label}
          component="a"
          href={externalUrl}
          target="_blank"
          rel="noopener noreferrer"
        >
          {dot}
        </IconButton>
      )}
    </Tooltip>
  );
};
