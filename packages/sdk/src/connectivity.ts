import type { Clock, TimerHandle } from './clock.js';

export type ConnectivityState = { lost: boolean; failures: number };

export type ConnectivityListener = (state: ConnectivityState) => void;

export type Connectivity = {
  getState(): ConnectivityState;
  subscribe(listener: ConnectivityListener): () => void;
  // Ping now instead of waiting for the next scheduled retry.
  retryNow(): void;
  // Follows the browser's network state (see NetworkStatus); returns the stop function, which
  // also cancels a scheduled retry.
  start(): () => void;
};

// The browser's own view of the network: navigator.onLine and the window's online/offline
// events. "Offline" is reliable (no network at all); "online" only means "worth trying again".
export type NetworkStatus = {
  isOnline(): boolean;
  // Calls onChange on every online/offline event; returns the unsubscribe function.
  subscribe(onChange: (online: boolean) => void): () => void;
};

// The page's network status, or null outside a browser (Node has no online/offline events).
export const browserNetworkStatus = (): NetworkStatus | null => {
  if (typeof window === 'undefined' || typeof navigator === 'undefined') return null;
  return {
    isOnline: () => navigator.onLine !== false,
    subscribe(onChange) {
      const online = () => onChange(true);
      const offline = () => onChange(false);
      window.addEventListener('online', online);
      window.addEventListener('offline', offline);
      return () => {
        window.removeEventListener('online', online);
        window.removeEventListener('offline', offline);
      };
    },
  };
};

export type ConnectivityController = Connectivity & {
  // A request got no answer: start pinging unless already doing so.
  reportFailure(): void;
  // The server answered something: the connection is back.
  reportSuccess(): void;
  // Holds a GET that failed for lack of network until the connection is back, then resends it.
  enqueue<T>(resend: () => Promise<T>, signal?: AbortSignal): Promise<T>;
};

// Retry after 200 ms x min(failures, 10); lost at 3 failures.
export const pingRetryStepMs = 200;
export const pingRetryMaxSteps = 10;
export const lostAfterFailures = 3;

// `ping` resolves when the server answered and rejects when it could not be reached. `network`
// (default: the browser's, read when start() is called) declares the connection lost at once
// when the browser goes offline, and pings at once when it comes back.
export const createConnectivity = (
  clock: Clock,
  ping: () => Promise<void>,
  network?: NetworkStatus | null,
): ConnectivityController => {
  let state: ConnectivityState = { lost: false, failures: 0 };
  let checking = false;
  let pinging = false;
  let timer: TimerHandle | null = null;
  // Bumped on recovery and on stop so that the answer of a ping sent before is ignored.
  let generation = 0;
  const listeners = new Set<ConnectivityListener>();
  const queue = new Set<() => void>();
  // The network state followed since start(); while it says offline nothing clears the lost
  // state: an answer that arrives then was sent before the network went (a late reply, or a ping
  // in flight), and clearing on it would also stop the pings, leaving nothing to notice the
  // offline state again (TanStack Query sends nothing while the browser is offline).
  let followed: NetworkStatus | null = null;
  const browserOffline = () => followed !== null && !followed.isOnline();

  const setState = (next: ConnectivityState) => {
    if (next.lost === state.lost && next.failures === state.failures) return;
    state = next;
    for (const listener of [...listeners]) listener(state);
  };

  const cancelTimer = () => {
    if (timer !== null) clock.clearTimer(timer);
    timer = null;
  };

  const recover = () => {
    if (browserOffline()) return;
    if (!checking && queue.size === 0 && state.failures === 0 && !state.lost) return;
    generation += 1;
    checking = false;
    pinging = false;
    cancelTimer();
    setState({ lost: false, failures: 0 });
    const resends = [...queue];
    queue.clear();
    for (const resend of resends) resend();
  };

  const runPing = () => {
    timer = null;
    pinging = true;
    const sentIn = generation;
    ping().then(
      () => {
        if (sentIn !== generation) return;
        if (browserOffline()) {
          // Answered, but the browser says offline: keep checking (see browserOffline).
          pinging = false;
          timer = clock.setTimer(runPing, pingRetryStepMs * pingRetryMaxSteps);
          return;
        }
        recover();
      },
      () => {
        if (sentIn !== generation) return;
        pinging = false;
        const failures = state.failures + 1;
        setState({ lost: state.lost || failures >= lostAfterFailures, failures });
        timer = clock.setTimer(runPing, pingRetryStepMs * Math.min(failures, pingRetryMaxSteps));
      },
    );
  };

  const check = () => {
    if (checking) return;
    checking = true;
    runPing();
  };

  const retryNow = () => {
    if (!checking) {
      check();
      return;
    }
    if (pinging) return;
    cancelTimer();
    runPing();
  };

  // No network at all: lost now, without waiting for three failed pings; the pings go on, and
  // the first one answered (or the online event's) clears it.
  const goOffline = () => {
    setState({ lost: true, failures: state.failures });
    check();
  };

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    retryNow,
    start() {
      const source = network === undefined ? browserNetworkStatus() : network;
      followed = source;
      const unsubscribe = source?.subscribe((online) => (online ? retryNow() : goOffline()));
      if (source && !source.isOnline()) goOffline();
      return () => {
        unsubscribe?.();
        followed = null;
        // Queued requests stay queued; the next failure or success picks them up.
        generation += 1;
        cancelTimer();
        checking = false;
        pinging = false;
      };
    },
    reportFailure: check,
    reportSuccess: recover,
    enqueue(resend, signal) {
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          queue.delete(send);
          reject(signal?.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
        };
        const send = () => {
          signal?.removeEventListener('abort', onAbort);
          resend().then(resolve, reject);
        };
        if (signal?.aborted) {
          onAbort();
          return;
        }
        queue.add(send);
        signal?.addEventListener('abort', onAbort, { once: true });
        // The failure that queued this may have been the last one before recovery.
        if (!checking) check();
      });
    },
  };
};
