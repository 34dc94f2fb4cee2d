import type { Clock } from '../clock.js';

export type FakeClock = Clock & {
  // Moves time forward, firing due timers in order and letting promises settle in between.
  advance(ms: number): Promise<void>;
  pendingTimers(): number;
};

// Lets fetch fakes, Response bodies and promise chains run to completion.
export const settle = async (): Promise<void> => {
  for (let turn = 0; turn < 10; turn += 1) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
};

export const createFakeClock = (start = Date.UTC(2026, 0, 1)): FakeClock => {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();

  const nextDue = (until: number): [number, { at: number; callback: () => void }] | undefined => {
    let found: [number, { at: number; callback: () => void }] | undefined;
    for (const entry of timers) {
      if (entry[1].at <= until && (found === undefined || entry[1].at < found[1].at)) found = entry;
    }
    return found;
  };

  return {
    now: () => now,
    setTimer(callback, delayMs) {
      const id = nextId;
      nextId += 1;
      timers.set(id, { at: now + Math.max(0, delayMs), callback });
      return id;
    },
    clearTimer(handle) {
      if (typeof handle === 'number') timers.delete(handle);
    },
    async advance(ms) {
      const target = now + ms;
      await settle();
      for (let due = nextDue(target); due !== undefined; due = nextDue(target)) {
        const [id, timer] = due;
        timers.delete(id);
        now = timer.at;
        timer.callback();
        await settle();
      }
      now = target;
      await settle();
    },
    pendingTimers: () => timers.size,
  };
};
