import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';

// The device page while its device loads, and when loading it failed (with a retry).
export const DevicePageLoading = () => (
  <Box aria-busy="true" aria-label="Loading">
    <Skeleton variant="text" width={280} height={48} />
    <Skeleton variant="rounded" height={240} sx={{ mt: 2 }} />
  </Box>
);

export const DevicePageError = ({ error, onRetry }: { error: unknown; onRetry: () => void }) => (
  <Alert
    severity="error"
    action={
      <Button color="inherit" size="small" onClick={onRetry}>
        Retry
      </Button>
    }
  >
    {errorText(error) ?? 'Could not load the device'}
  </Alert>
);
