import { useEffect } from 'react';
import { useClient } from '../../api/client.js';
import type { RouterLike } from './api-usage.js';

// Starts counting page views (loaded after the first screen, out of the initial JavaScript).
// Mounted once, with the console's router.
export const useUsageCounting = (router: RouterLike): void => {
  const client = useClient();
  useEffect(() => {
    let stop: (() => void) | undefined;
    let stopped = false;
    void import('./api-usage.js').then(({ startUsageCounting }) => {
      if (!stopped) stop = startUsageCounting(client, router);
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }, [client, router]);
};
