import type { Clock } from '../clock.js';

type Timer = { at: number; seq: number; callback: () => void };

// A clock that only moves when told to; timers fire in order as it passes them.
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #timers: Timer[] = [];

  constructor(start = 1_700_000_000_000) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimer(callback: () => void, delayMs: number): () => void {
    const timer = { at: this.#now + Math.max(0, delayMs), seq: this.#seq++, callback };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((candidate) => candidate !== timer);
    };
  }

  get pending(): number {
    return this.#timers.length;
  }

  // How long until the next timer fires; null without timers.
  nextDueIn(): number | null {
    if (this.#timers.length === 0) return null;
    return Math.min(...this.#timers.map((timer) => timer.at)) - this.#now;
  }

  // Moves time forward, firing every timer that falls due on the way.
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = this.#timers
        .filter((timer) => timer.at <= end)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((timer) => timer !== due);
      this.#now = Math.max(this.#now, due.at);
      due.callback();
    }
    this.#now = end;
  }

  // Like advance, for code that waits on timers through promises (the container app over the
  // simulated engine): the promise chains a timer starts run before the clock moves on, so the
  // next timer they set falls due within the same advance.
  async runFor(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      await settled();
      const next = this.nextDueIn();
      if (next === null || this.#now + next > end) break;
      this.advance(next);
    }
    this.#now = end;
    await settled();
  }
}

// Every promise continuation queued so far, and those they queue, has run once a macrotask
// comes round.
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
