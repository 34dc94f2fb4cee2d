// Time is injected everywhere so tests can drive throttles and backoffs without waiting.
export type Clock = {
  now(): number;
  // Runs `callback` once after `delayMs`; the returned function cancels it.
  setTimer(callback: () => void, delayMs: number): () => void;
};

// setTimeout overflows above 2^31-1 ms and then fires immediately.
const maxTimerMs = 2_147_483_647;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, delayMs) {
    const timer = setTimeout(callback, Math.min(Math.max(0, delayMs), maxTimerMs));
    return () => clearTimeout(timer);
  },
};

export const sleep = (clock: Clock, delayMs: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      cancel();
      reject(signal?.reason);
    };
    const cancel = clock.setTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, delayMs);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export type Random = () => number;

// A small seeded generator (mulberry32) so a simulator run can be reproduced from its seed.
export const seededRandom = (seed: number): Random => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

// A uniformly random value in [min, max).
export const between = (random: Random, min: number, max: number): number =>
  min + (max - min) * random();
