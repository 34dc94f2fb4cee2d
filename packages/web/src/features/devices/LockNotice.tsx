import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { updateLockMessage } from './batch-report.js';
import { actionSpecs } from './device-actions.js';
import type { DeviceActions } from './api-device-actions.js';

// After an update lock refused an action: the catalogue message and a force link that repeats
// the action with force on the devices that refused.
export const LockNotice = ({ actions }: { actions: DeviceActions }) => {
  const { locked } = actions;
  if (!locked) return null;
  const spec = actionSpecs[locked.request.id];
  const names = locked.targets.map((target) => target.name);
  return (
    <Alert
      severity="warning"
      role="alert"
      onClose={actions.dismissLock}
      action={
        <Button
          color="inherit"
          size="small"
          disabled={actions.pending !== null}
          onClick={() => void actions.run(locked.request, locked.targets, true)}
        >
          Force {spec.label.toLowerCase()}
        </Button>
      }
    >
      {updateLockMessage} ({spec.label.toLowerCase()}: {names.slice(0, 3).join(', ')}
      {names.length > 3 ? ` and ${names.length - 3} more` : ''}).
    </Alert>
  );
};
