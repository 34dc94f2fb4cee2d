import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import { useEffect, useState } from 'react';
import { useConnectivity, useThrottledUntil } from './api.js';

export const OfflineBanner = () => {
  const { lost, retryNow } = useConnectivity();
  return (
    <Collapse in={lost} unmountOnExit>
      <Alert
        severity="warning"
        variant="filled"
        square
        action={
          <Button color="inherit" size="small" onClick={() => retryNow()}>
            Retry
          </Button>
        }
      >
        We are offline, trying to reconnect...
      </Alert>
    </Collapse>
  );
};

export const ThrottleNotice = () => {
  const until = useThrottledUntil();
  return (
    <Collapse in={until !== null} unmountOnExit>
      <Alert severity="info" square>
        We are currently throttling API requests. Please wait a few seconds.
      </Alert>
    </Collapse>
  );
};

const versionCheckEveryMs = 600_000;

// Polls the deployed build time; a different one means a newer console is available.
export const OutOfDateBanner = () => {
  const [outdated, setOutdated] = useState(false);
  useEffect(() => {
    if (import.meta.env.DEV) return undefined;
    const check = async (): Promise<void> => {
      try {
        const response = await fetch(`/buildtime.txt?${Date.now()}`, { cache: 'no-store' });
        if (!response.ok) return;
        const deployed = (await response.text()).trim();
        if (deployed && deployed !== __FLOTILLA_BUILD_TIME__) setOutdated(true);
      } catch {
        // Offline: the offline banner speaks for it.
      }
    };
    void check();
    const timer = window.setInterval(() => void check(), versionCheckEveryMs);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <Collapse in={outdated} unmountOnExit>
      <Alert
        severity="info"
        square
        action={
          <Button color="inherit" size="small" onClick={() => window.location.reload()}>
            Reload
          </Button>
        }
      >
        The dashboard is out of date: a newer version has been deployed.
      </Alert>
    </Collapse>
  );
};
