import type { Random } from './clock.js';

export type BackoffPolicy = {
  // The first delay's ceiling; each further failure doubles it up to maxMs.
  baseMs: number;
  maxMs: number;
};

// "Equal jitter": half the exponential step is kept, half is random. The floor keeps a retry
// from hammering the server, the random half spreads a fleet that failed at the same moment.
export const backoffDelay = (attempt: number, policy: BackoffPolicy, random: Random): number => {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, Math.min(attempt, 30)));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
};

// A server's Retry-After (seconds or an HTTP date) wins over our own schedule when it is longer.
export const parseRetryAfter = (value: string | null, now: number): number | null => {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
};

export class Backoff {
  readonly #policy: BackoffPolicy;
  readonly #random: Random;
  #failures = 0;

  constructor(policy: BackoffPolicy, random: Random) {
    this.#policy = policy;
    this.#random = random;
  }

  get failures(): number {
    return this.#failures;
  }

  // The delay before the next attempt after one more failure.
  fail(retryAfterMs: number | null = null): number {
    const delay = backoffDelay(this.#failures, this.#policy, this.#random);
    this.#failures++;
    return retryAfterMs === null ? delay : Math.max(delay, retryAfterMs);
  }

  reset(): void {
    this.#failures = 0;
  }
}
