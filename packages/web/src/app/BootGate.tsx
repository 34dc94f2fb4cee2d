import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useDeploymentTag } from '../ui/deployment-tag.js';
import { useClient } from './client.js';

const bootRetryMs = 10_000;
const bootTimeoutMs = 59_000;

const withTimeout = <T,>(promise: Promise<T>, ms: number): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = window.setTimeout(() => reject(new Error('Loading Flotilla took too long')), ms);
    promise.then(
      (value) => {
        window.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        window.clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });

// Boot (seed 000 section 4): load the public configuration (deployment tag) and, when a session
// exists, the profile, before showing the app. A failure shows the error and retries every 10 s;
// each attempt gives up after 59 s.
export const BootGate = ({ children }: { children: ReactNode }) => {
  const client = useClient();
  const [, setDeploymentTag] = useDeploymentTag();
  const boot = useQuery({
    queryKey: ['boot'],
    queryFn: () =>
      withTimeout(
        (async () => {
          // Both requests at once: the boot is on the path of every first screen.
          const [config] = await Promise.all([
            client.config(),
            // An expired or refused session is not a boot failure: the guards ask to log in.
            client.auth.getToken() ? client.auth.whoami().catch(() => undefined) : undefined,
          ]);
          setDeploymentTag(typeof config.deployment === 'string' ? config.deployment : null);
          return true;
        })(),
        bootTimeoutMs,
      ),
    retry: true,
    retryDelay: bootRetryMs,
    staleTime: Infinity,
  });
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
