import type { ConnectivityController } from './connectivity.js';
import { FlotillaApiError, FlotillaNetworkError } from './errors.js';
import type { ThrottleController } from './throttle.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type QueryValue = string | number | boolean | undefined;

export type RequestOptions = {
  method?: HttpMethod;
  // Relative to the API root, e.g. '/actor/v1/whoami'; may already carry a query string.
  path: string;
  // Sent as JSON.
  body?: unknown;
  // Sent as is, instead of `body` (a project tarball for the builder, an uploaded image).
  upload?: { data: Blob; contentType: string };
  query?: Record<string, QueryValue>;
  // Send the stored token (default true).
  auth?: boolean;
  signal?: AbortSignal;
  // Default 59 s, as balena's SDK.
  timeoutMs?: number;
  // On 429, wait for the throttle notice to end and send again (pine calls do).
  retryRateLimited?: boolean;
  // A POST that only reads (a batch of reads): sent again once the connection is back, as GETs.
  readOnly?: boolean;
};

export type RequestFn = <T>(options: RequestOptions) => Promise<T>;

// How many times one request is sent again after 429s before the error is raised.
export const maxRateLimitRetries = 3;

export type RequestDeps = {
  // One HTTP exchange (http-exchange.ts, bound to the client's settings).
  send: RequestFn;
  throttle: ThrottleController;
  connectivity: ConnectivityController;
  // A 401 arrived (the session may have ended).
  onUnauthorized: (error: FlotillaApiError) => void;
};

// The request every console call goes through: rate-limit notices and retries, connectivity
// tracking with GETs held back while offline, and the session's reaction to 401s.
export const createRequest = (deps: RequestDeps): RequestFn => {
  const request = async <T>(options: RequestOptions): Promise<T> => {
    for (let retries = 0; ; retries += 1) {
      try {
        const result = await deps.send<T>(options);
        deps.connectivity.reportSuccess();
        return result;
      } catch (error) {
        if (error instanceof FlotillaApiError) {
          // An answer from a gateway standing in for the API does not prove the API is back.
          if (error.status < 500) deps.connectivity.reportSuccess();
          if (error.status === 429) {
            deps.throttle.reportRateLimited(error.retryAfterSeconds);
            if (options.retryRateLimited === true && retries < maxRateLimitRetries) {
              await deps.throttle.wait(options.signal);
              continue;
            }
          }
          if (error.status === 401) deps.onUnauthorized(error);
        } else if (error instanceof FlotillaNetworkError) {
          deps.connectivity.reportFailure();
          // Reads are safe to send again once the connection is back; writes are not.
          if ((options.method ?? 'GET') === 'GET' || options.readOnly === true) {
            return deps.connectivity.enqueue(() => request<T>(options), options.signal);
          }
        }
        throw error;
      }
    }
  };
  return request;
};
