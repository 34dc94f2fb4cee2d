import { useEffect } from 'react';
import { useClient } from '../../api/client.js';

// Starts the console's feature flags (OpenFeature and its provider, loaded after the first
// screen so they stay out of the initial JavaScript). Mounted once, at the top of the console.
export const useFeatureFlagProvider = (): void => {
  const client = useClient();
  useEffect(() => {
    let stop: (() => void) | undefined;
    let stopped = false;
    void import('./api-provider.js').then(({ startFeatureFlags }) => {
      if (!stopped) stop = startFeatureFlags(client);
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }, [client]);
};
