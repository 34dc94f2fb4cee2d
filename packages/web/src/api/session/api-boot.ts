import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { setDeploymentTag } from '../../ui/deployment-tag.js';
import { useClient } from '../client.js';
import { publicConfigQuery } from '../config/api.js';
import { sessionKeys } from './query-keys.js';

const bootRetryMs = 10_000;
const bootTimeoutMs = 59_000;

const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> =>
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

// The boot: the public configuration (deployment tag) and, when a session
// exists, whoami, before the app shows. One query that BootGate waits for and early-start.ts
// starts before React exists, so that on a cold load its answers are in the cache by the time
// the first render asks. A failure retries every 10 s; each attempt gives up after 59 s.
// The configuration goes into the cache the screens read it from (usePublicConfig), so the
// shell does not ask for it a second time on a cold load.
export const bootQuery = (client: FlotillaClient) =>
  queryOptions({
    queryKey: sessionKeys.boot,
    queryFn: ({ client: cache }) =>
      withTimeout(
        (async () => {
          // Both requests at once: the boot is on the path of every first screen.
          const [config] = await Promise.all([
            cache.fetchQuery(publicConfigQuery(client)),
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

// BootGate waits on it before the first screen.
export const useBoot = () => {
  const client = useClient();
  return useQuery(bootQuery(client));
};
