import { type AuthApi, createAuth } from './auth.js';
import { type Clock, systemClock } from './clock.js';
import {
  type DeviceTypeManifest,
  fetchDeviceTypes,
  fetchPublicConfig,
  type PublicConfig,
} from './config.js';
import { type Connectivity, createConnectivity } from './connectivity.js';
import { FlotillaApiError } from './errors.js';
import { sendHttp } from './http-exchange.js';
import { openHttpStream, type StreamOptions } from './http-stream.js';
import { createPine, type FlotillaPine } from './pine.js';
import { createRequest, type RequestOptions } from './request.js';
import { createThrottle, type Throttle } from './throttle.js';
import { memoryTokenStorage, type TokenStorage } from './token-storage.js';
import { clientVersion } from './version.js';

export type ClientOptions = {
  // The API root, e.g. 'https://api.example.com'; '' (the default) means the page's own origin.
  apiUrl?: string;
  // Where the token lives (default: memory only).
  storage?: TokenStorage;
  fetch?: typeof fetch;
  // Sent as X-Balena-Client.
  clientHeader?: string;
  now?: Clock['now'];
  setTimer?: Clock['setTimer'];
  clearTimer?: Clock['clearTimer'];
};

export type FlotillaClient = {
  apiUrl: string;
  pine: FlotillaPine;
  auth: AuthApi;
  connectivity: Connectivity;
  throttle: Throttle;
  request: <T>(options: RequestOptions) => Promise<T>;
  // A GET or POST read as it arrives (http-stream.ts); not retried or queued like `request`.
  stream: (options: StreamOptions) => Promise<ReadableStream<Uint8Array>>;
  config: () => Promise<PublicConfig>;
  deviceTypes: () => Promise<DeviceTypeManifest[]>;
};

// The ping only asks whether the API can be reached (no token, no retry).
const pingTimeoutMs = 10_000;

export const createFlotillaClient = (options: ClientOptions = {}): FlotillaClient => {
  const apiUrl = (options.apiUrl ?? '').replace(/\/+$/, '');
  const storage = options.storage ?? memoryTokenStorage();
  const clock: Clock = {
    now: options.now ?? systemClock.now,
    setTimer: options.setTimer ?? systemClock.setTimer,
    clearTimer: options.clearTimer ?? systemClock.clearTimer,
  };
  // Called through globalThis at request time so that a fetch patched later is used, and
  // without a receiver (browsers reject fetch called on another object).
  const fetchFn: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const http = {
    apiUrl,
    fetch: fetchFn,
    clientHeader: options.clientHeader ?? `flotilla-console/${clientVersion}`,
    clock,
    getToken: () => storage.get(),
  };

  const throttle = createThrottle(clock);
  const connectivity = createConnectivity(clock, async () => {
    try {
      await sendHttp(http, { path: '/ping', auth: false, timeoutMs: pingTimeoutMs });
    } catch (error) {
      // Any answer below 500 proves the API is reachable; gateways answer 502-504 for it.
      if (!(error instanceof FlotillaApiError) || error.status >= 500) throw error;
    }
  });
  // The request and the session need each other: 401s end sessions, and auth sends requests.
  const request = createRequest({
    send: (requestOptions) => sendHttp(http, requestOptions),
    throttle,
    connectivity,
    onUnauthorized: (error) => auth.handleUnauthorized(error),
  });
  const auth = createAuth({ storage, clock, request });

  return {
    apiUrl,
    pine: createPine(request),
    auth,
    connectivity,
    throttle,
    request,
    stream: (streamOptions) => openHttpStream(http, streamOptions),
    config: () => fetchPublicConfig(request),
    deviceTypes: () => fetchDeviceTypes(request),
  };
};
