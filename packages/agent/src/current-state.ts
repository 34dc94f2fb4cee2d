import {
  type DeviceReportKey,
  deviceReportKeys,
  type DeviceReportV3,
  type StateReportV3,
} from '@flotilla/shared/device-protocol/state-report-v3';
import { type ApiClient, ApiError } from './api-client.js';
import { Backoff, type BackoffPolicy } from './backoff.js';
import type { Random } from './clock.js';
import { errorText, FailureLog, type Logger } from './logger.js';
import type { DeviceInfo, DeviceMetrics } from './runtime/device-runtime.js';
import type { Scheduler, TaskHandle } from './scheduler.js';
import { withDefaults } from './with-defaults.js';

export type ReportOutcome = 'sent' | 'unchanged' | 'failed';

export type StateReporterOptions = ReporterSettings & ReporterHooks;

type ReporterSettings = {
  api: ApiClient;
  uuid: string;
  scheduler: Scheduler;
  random: Random;
  logger: Logger;
  info: () => DeviceInfo;
  metrics: () => Promise<DeviceMetrics>;
  // At most one report per interval (balena: 10 s).
  reportIntervalMs?: number;
  // Metrics ride along at most this often (balena: 5 min).
  metricsIntervalMs?: number;
  errorBackoff?: BackoffPolicy;
};

type ReporterHooks = {
  // After each report the server accepted (a self-updated agent counts as healthy at the first).
  onReported?: () => void;
};

const reportKeys: readonly string[] = deviceReportKeys;
const isReportKey = (key: string): key is DeviceReportKey => reportKeys.includes(key);

const copyKey = <K extends DeviceReportKey>(
  to: DeviceReportV3,
  from: DeviceReportV3,
  key: K,
): void => {
  to[key] = from[key];
};

// Metrics move all the time; they are compared only when due so that a wandering CPU figure
// never makes a report by itself more often than the metrics interval.
const metricKeys: readonly string[] = [
  'cpu_usage',
  'cpu_temp',
  'memory_usage',
  'memory_total',
  'storage_usage',
  'storage_total',
  'storage_block_device',
  'is_undervolted',
];

// PATCH /device/v3/state with only what changed since the last accepted report, at most every
// reportIntervalMs, metrics at most every metricsIntervalMs; failures back off (Retry-After
// honoured) and keep the changes for the next attempt.
export class StateReporter {
  readonly #options: Required<ReporterSettings>;
  readonly #backoff: Backoff;
  readonly #failures: FailureLog;
  #retryAfterMs: number | null = null;
  #reported: DeviceReportV3 = {};
  #lastSentAt = Number.NEGATIVE_INFINITY;
  #lastMetricsAt = Number.NEGATIVE_INFINITY;
  #next: TaskHandle | null = null;
  #metricsTimer: TaskHandle | null = null;
  #inFlight: Promise<ReportOutcome> | null = null;
  #dirtyWhileInFlight = false;
  #running = false;
  #reports = 0;
  readonly #onReported: (() => void) | undefined;

  constructor(options: StateReporterOptions) {
    const { onReported, ...settings } = options;
    this.#onReported = onReported;
    this.#options = withDefaults(
      {
        ...settings,
        reportIntervalMs: 10_000,
        metricsIntervalMs: 300_000,
        errorBackoff: { baseMs: 10_000, maxMs: 300_000 },
      },
      settings,
    );
    this.#backoff = new Backoff(this.#options.errorBackoff, options.random);
    this.#failures = new FailureLog(options.logger);
  }

  // Accepted reports since the start.
  get reports(): number {
    return this.#reports;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.changed();
    this.#armMetrics();
  }

  stop(): void {
    this.#running = false;
    this.#next?.cancel();
    this.#next = null;
    this.#metricsTimer?.cancel();
    this.#metricsTimer = null;
  }

  // Something changed: report as soon as the throttle allows.
  changed(): void {
    if (!this.#running) return;
    if (this.#inFlight) {
      this.#dirtyWhileInFlight = true;
      return;
    }
    if (this.#next) return;
    const wait = this.#lastSentAt + this.#options.reportIntervalMs - this.#options.scheduler.now();
    this.#schedule(Math.max(0, wait));
  }

  // Resolves when no report is in flight (tests await it after advancing the clock).
  async settled(): Promise<void> {
    while (this.#inFlight) await this.#inFlight;
  }

  // One report attempt, ignoring the throttle (used by the schedule and by tests).
  async report(): Promise<ReportOutcome> {
    const { api, uuid, scheduler, logger } = this.#options;
    const now = scheduler.now();
    const metricsDue = now - this.#lastMetricsAt >= this.#options.metricsIntervalMs;
    const current: DeviceReportV3 = { ...this.#options.info() };
    if (metricsDue) {
      try {
        Object.assign(current, await this.#options.metrics());
      } catch (error) {
        logger.debug(`metrics unavailable: ${errorText(error)}`);
      }
    }
    const changes: DeviceReportV3 = {};
    // In the order the runtime gave them; a key the protocol does not know is not sent.
    for (const key of Object.keys(current).filter(isReportKey)) {
      const value = current[key];
      if (value === undefined) continue;
      if (!metricsDue && metricKeys.includes(key)) continue;
      if (JSON.stringify(value) !== JSON.stringify(this.#reported[key])) {
        copyKey(changes, current, key);
      }
    }
    if (Object.keys(changes).length === 0) {
      if (metricsDue) this.#lastMetricsAt = now;
      return 'unchanged';
    }
    const body: StateReportV3 = { [uuid]: changes };
    try {
      await api.request({ method: 'PATCH', path: '/device/v3/state', body }, [200, 201, 204]);
    } catch (error) {
      this.#failures.fail(`state report failed: ${errorText(error)}`);
      this.#retryAfterMs = error instanceof ApiError ? error.retryAfterMs : null;
      return 'failed';
    }
    this.#backoff.reset();
    this.#failures.recover('state reports work again');
    this.#reported = { ...this.#reported, ...changes };
    this.#lastSentAt = now;
    if (metricsDue) this.#lastMetricsAt = now;
    this.#reports++;
    this.#onReported?.();
    return 'sent';
  }

  #schedule(delayMs: number): void {
    this.#next = this.#options.scheduler.after(delayMs, () => {
      this.#next = null;
      const attempt = this.report();
      this.#inFlight = attempt;
      void attempt.then((outcome) => {
        this.#inFlight = null;
        if (!this.#running) return;
        if (outcome === 'failed') {
          // The retry reads the state afresh, so changes meanwhile ride along.
          this.#dirtyWhileInFlight = false;
          this.#schedule(this.#backoff.fail(this.#retryAfterMs));
          return;
        }
        if (this.#dirtyWhileInFlight) {
          this.#dirtyWhileInFlight = false;
          this.changed();
        }
      });
    });
  }

  #armMetrics(): void {
    this.#metricsTimer = this.#options.scheduler.after(this.#options.metricsIntervalMs, () => {
      this.#metricsTimer = null;
      if (!this.#running) return;
      this.changed();
      this.#armMetrics();
    });
  }
}
