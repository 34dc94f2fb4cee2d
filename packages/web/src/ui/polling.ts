import {
  defaultPollingMs,
  fleetListRefreshMs,
  pollingGrace,
} from '@flotilla/shared/constants/limits';
import { liveUpdatesConnected } from './live-updates.js';

export type PollingOptions = {
  refetchInterval: number | (() => number);
  refetchIntervalInBackground: false;
  refetchOnWindowFocus: true;
  staleTime: number;
};

// The one polling rule of the console: poll every `intervalMs` only while the
// tab is visible; data younger than the grace (0.33 of the interval) is not fetched again when the
// tab comes back or another screen asks for it.
export const polling = (intervalMs: number = defaultPollingMs): PollingOptions => ({
  refetchInterval: intervalMs,
  refetchIntervalInBackground: false,
  refetchOnWindowFocus: true,
  staleTime: Math.round(intervalMs * pollingGrace),
});

export const fleetListPolling = (): PollingOptions => polling(fleetListRefreshMs);

// Polling that runs only while the data says so (a run in progress): `intervalOf` gives the
// interval for the current data, or false to stop. Visible tab only, as above.
export const pollingWhile = <T>(intervalOf: (data: T | undefined) => number | false) => ({
  refetchInterval: (query: { state: { data: T | undefined } }) => intervalOf(query.state.data),
  refetchIntervalInBackground: false as const,
  refetchOnWindowFocus: true as const,
});

// While the live event stream is connected, data it refreshes is polled this rarely: a safety net
// for what no event announces (last contact, metrics).
export const streamedRefreshMs = 120_000;

// Polling for data the event stream keeps fresh: `intervalMs` while the stream is down, rarely
// while it is connected. Evaluated after each fetch; a dropped stream refetches at once.
export const streamedPolling = (intervalMs: number = defaultPollingMs): PollingOptions => ({
  refetchInterval: () => (liveUpdatesConnected() ? streamedRefreshMs : intervalMs),
  refetchIntervalInBackground: false,
  refetchOnWindowFocus: true,
  staleTime: Math.round(intervalMs * pollingGrace),
});

export const streamedFleetListPolling = (): PollingOptions => streamedPolling(fleetListRefreshMs);
