import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { MutationError } from '../../ui/MutationError.js';
import { type RolloutDetail, useRolloutCommand } from './api.js';

// Pause, resume, skip the current gate (with a reason) and abort, each offered when the
// rollout's state allows it and disabled with the reason when the caller's role does not.
export const RolloutActions = ({ rollout }: { rollout: RolloutDetail }) => {
  const access = useFleetRole(rollout.application);
  const command = useRolloutCommand(rollout.id);
  const [skipping, setSkipping] = useState(false);
  const [reason, setReason] = useState('');
  const { status } = rollout;
  if (status === 'completed' || status === 'aborted') return null;
  const denied = (action: string) => access.denied('flotilla_rollout', action);
  const button = (label: string, action: string, run: () => void) => (
    <Button
      variant="outlined"
      onClick={run}
      disabled={command.isPending || denied(action) !== null}
      title={denied(action) ?? undefined}
    >
      {label}
    </Button>
  );
  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1}>
        {status === 'running'
          ? button('Pause', 'pause', () => command.mutate({ command: 'pause' }))
          : null}
        {status === 'paused'
          ? button('Resume', 'update', () => command.mutate({ command: 'resume' }))
          : null}
        {!rollout.rolled_back ? button('Skip gate', 'update', () => setSkipping(true)) : null}
        {button('Abort', 'abort', () => command.mutate({ command: 'abort' }))}
      </Stack>
      <MutationError error={command.error} fallback="The rollout refused the decision" />
      <Dialog open={skipping} onClose={() => setSkipping(false)}>
        <DialogTitle>Skip the gate of wave {rollout.current_wave}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label="Reason"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setSkipping(false)}>Cancel</Button>
          <Button
            variant="contained"
            disabled={reason.trim() === ''}
            onClick={() => {
              command.mutate({ command: 'skip-gate', reason });
              setSkipping(false);
            }}
          >
            Skip gate
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
};
