import type { Clock, TimerHandle } from './clock.js';

// While set, the API is throttling this client (429) until `until` (ms since the epoch).
export type ThrottleNotice = { until: number };

export type ThrottleListener = (notice: ThrottleNotice | null) => void;

export type Throttle = {
  getNotice(): ThrottleNotice | null;
  subscribe(listener: ThrottleListener): () => void;
};

export type ThrottleController = Throttle & {
  // A 429 arrived: show the notice for max(Retry-After, 5) seconds.
  reportRateLimited(retryAfterSeconds?: number): void;
  // Resolves once no notice is shown (at once when none is).
  wait(signal?: AbortSignal): Promise<void>;
};

export const minThrottleSeconds = 5;

export const createThrottle = (clock: Clock): ThrottleController => {
  let notice: ThrottleNotice | null = null;
  let timer: TimerHandle | null = null;
  const listeners = new Set<ThrottleListener>();
  const waiters = new Set<() => void>();

  const emit = () => {
    for (const listener of [...listeners]) listener(notice);
  };

  const clear = () => {
    timer = null;
    notice = null;
    emit();
    const released = [...waiters];
    waiters.clear();
    for (const release of released) release();
  };

  return {
    getNotice: () => notice,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    reportRateLimited(retryAfterSeconds) {
      const now = clock.now();
      const until = now + Math.max(retryAfterSeconds ?? 0, minThrottleSeconds) * 1000;
      // A later notice already shown stays.
      if (notice !== null && notice.until >= until) return;
      if (timer !== null) clock.clearTimer(timer);
      notice = { until };
      timer = clock.setTimer(clear, until - now);
      emit();
    },
    wait(signal) {
      if (notice === null) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          waiters.delete(release);
          reject(signal?.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
        };
        const release = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        if (signal?.aborted) {
          onAbort();
          return;
        }
        waiters.add(release);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
};
