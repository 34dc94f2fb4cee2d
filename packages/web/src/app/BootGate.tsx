import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import type { ReactNode } from 'react';
import { useBoot } from '../api/session/api-boot.js';

// Waits for the boot (api/session/api-boot.ts) before showing the app; a failure shows the error and the
// retry.
export const BootGate = ({ children }: { children: ReactNode }) => {
  const boot = useBoot();
  if (boot.isSuccess) return <>{children}</>;
  const failure = boot.failureReason;
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '100vh', p: 2 }}>
      {failure ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void boot.refetch()}>
              Retry now
            </Button>
          }
        >
          {errorText(failure) ?? 'Flotilla could not be loaded'}. Retrying every 10 seconds…
        </Alert>
      ) : (
        <CircularProgress aria-label="Loading Flotilla" />
      )}
    </Box>
  );
};
