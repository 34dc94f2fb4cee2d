import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { Link } from 'react-router';
import { useActiveRollout } from './api-fleet-rollouts.js';

// The fleet summary's notice of a rollout in progress, with a link to its live view.
export const ActiveRolloutBanner = ({ fleetId }: { fleetId: number }) => {
  const rollout = useActiveRollout(fleetId);
  if (!rollout) return null;
  return (
    <Alert
      severity={rollout.status === 'halted' ? 'error' : 'info'}
      action={
        <Button component={Link} to={`/fleets/${fleetId}/rollouts/${rollout.id}`} color="inherit">
          Open
        </Button>
      }
    >
      Rollout to release {rollout.target_release} {rollout.status}: wave {rollout.current_wave} of{' '}
      {rollout.wave_count}
    </Alert>
  );
};
