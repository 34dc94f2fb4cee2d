// Time and timers behind one seam so tests can drive token expiry, retries and throttling.
export type TimerHandle = unknown;

export type Clock = {
  now: () => number;
  setTimer: (callback: () => void, delayMs: number) => TimerHandle;
  clearTimer: (handle: TimerHandle) => void;
};

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer: (callback, delayMs) => setTimeout(callback, delayMs),
  // Only handles made by setTimer above reach here.
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
