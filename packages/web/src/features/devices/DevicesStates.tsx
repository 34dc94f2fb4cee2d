import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

// The fleet devices when loading them failed (with a retry).
export const DevicesLoadError = ({ error, onRetry }: { error: unknown; onRetry: () => void }) => (
  <Alert
    severity="error"
    action={
      <Button color="inherit" size="small" onClick={onRetry}>
        Retry
      </Button>
    }
  >
    {errorText(error) ?? 'Could not load the devices'}
  </Alert>
);

// A fleet without devices yet: how to add one.
export const NoDevicesYet = ({ addButton }: { addButton: ReactNode }) => (
  <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
    <Typography variant="h3" component="h2" gutterBottom>
      No devices yet
    </Typography>
    <Typography color="text.secondary" sx={{ mb: 3 }}>
      Add a device to this fleet: download its configuration and start the agent with it.
    </Typography>
    {addButton}
  </Paper>
);
