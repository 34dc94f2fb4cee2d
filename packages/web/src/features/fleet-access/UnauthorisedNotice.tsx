import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { classLabels } from '../../fleet/class-names.js';

// Without view rights the page says the user is not authorised to view and edit instead of showing
// an empty list. The noun follows the application's class (fleet, app or block).
export const UnauthorisedNotice = ({
  what,
  className,
}: {
  what: 'members' | 'teams';
  className: ApplicationClass;
}) => (
  <Paper variant="outlined" role="alert" sx={{ p: 6, textAlign: 'center' }}>
    <Typography>
      You are not authorised to view and edit the {what} of this{' '}
      {classLabels[className].one.toLowerCase()}.
    </Typography>
  </Paper>
);
