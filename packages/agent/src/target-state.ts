import { type ApiClient, ApiError } from './api-client.js';
import { Backoff, type BackoffPolicy } from './backoff.js';
import { between, type Random } from './clock.js';
import { errorText, FailureLog, type Logger } from './logger.js';
import type { Scheduler, TaskHandle } from './scheduler.js';
import { type DeviceTarget, parseTargetState } from './target-types.js';

export type PollOutcome = 'changed' | 'unchanged' | 'failed';

export type TargetStatePollerOptions = {
  api: ApiClient;
  uuid: string;
  scheduler: Scheduler;
  random: Random;
  // Read before every wait: a config variable may change it.
  pollIntervalMs: () => number;
  // `force` is set when the poll was an explicit update request (skip update locks).
  onTarget: (target: DeviceTarget, force: boolean) => void;
  logger: Logger;
  // First error delay, doubling up to the poll interval (balena starts at 15 s).
  errorBackoff?: Pick<BackoffPolicy, 'baseMs'>;
};

// Polls GET /device/v3/:uuid/state. The ETag of the last applied answer goes back in
// If-None-Match, so an unchanged target costs the server a 304 (and counts as a heartbeat).
export class TargetStatePoller {
  readonly #options: TargetStatePollerOptions;
  readonly #backoff: Backoff;
  readonly #failures: FailureLog;
  #etag: string | null = null;
  #next: TaskHandle | null = null;
  #inFlight: Promise<PollOutcome> | null = null;
  #again: boolean | null = null;
  #running = false;
  #retryAfterMs: number | null = null;

  constructor(options: TargetStatePollerOptions) {
    this.#options = options;
    this.#failures = new FailureLog(options.logger);
    const baseMs = options.errorBackoff?.baseMs ?? 15_000;
    // The cap is re-applied per failure because the interval can change at run time.
    this.#backoff = new Backoff({ baseMs, maxMs: Number.MAX_SAFE_INTEGER }, options.random);
  }

  get etag(): string | null {
    return this.#etag;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#schedule(0);
  }

  stop(): void {
    this.#running = false;
    this.#next?.cancel();
    this.#next = null;
  }

  // Poll now (the 'update' action); `force` fetches the full target even if unchanged.
  trigger(force = false): void {
    if (!this.#running) return;
    if (this.#inFlight) {
      this.#again = (this.#again ?? false) || force;
      return;
    }
    this.#next?.cancel();
    this.#run(force);
  }

  // One poll, without scheduling the next (tests and trigger use it).
  async poll(force = false): Promise<PollOutcome> {
    const { api, uuid, logger } = this.#options;
    this.#retryAfterMs = null;
    const headers: Record<string, string> = {};
    if (this.#etag !== null && !force) headers['if-none-match'] = this.#etag;
    try {
      const response = await api.request(
        { method: 'GET', path: `/device/v3/${uuid}/state`, headers },
        [200, 304],
      );
      this.#backoff.reset();
      this.#failures.recover('target state polls work again');
      if (response.status === 304) return 'unchanged';
      const target = parseTargetState(response.body, uuid);
      if (target === null) {
        logger.warn('target state answer did not describe this device; ignored');
        return 'failed';
      }
      this.#options.onTarget(target, force);
      this.#etag = response.headers.get('etag');
      return 'changed';
    } catch (error) {
      this.#retryAfterMs = error instanceof ApiError ? error.retryAfterMs : null;
      this.#failures.fail(`target state poll failed: ${errorText(error)}`);
      return 'failed';
    }
  }

  #run(force: boolean): void {
    const poll = this.poll(force);
    this.#inFlight = poll;
    void poll.then((outcome) => {
      this.#inFlight = null;
      if (!this.#running) return;
      const again = this.#again;
      this.#again = null;
      if (again !== null) {
        this.#run(again);
        return;
      }
      this.#schedule(outcome === 'failed' ? this.#errorDelay() : this.#pollDelay());
    });
  }

  #pollDelay(): number {
    // Early rather than late: the server times a device out after 1.5 poll intervals.
    const interval = this.#options.pollIntervalMs();
    return Math.round(between(this.#options.random, interval * 0.85, interval));
  }

  // Exponential from 15 s, capped by the poll interval; a longer Retry-After wins.
  #errorDelay(): number {
    const delay = Math.min(this.#backoff.fail(), this.#options.pollIntervalMs());
    return Math.max(delay, this.#retryAfterMs ?? 0);
  }

  #schedule(delayMs: number): void {
    this.#next?.cancel();
    this.#next = this.#options.scheduler.after(delayMs, () => {
      this.#next = null;
      this.#run(false);
    });
  }
}
