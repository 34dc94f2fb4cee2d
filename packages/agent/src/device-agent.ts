import type { ActionRequest } from '@flotilla/shared/cloudlink/messages';
import {
  clampPollInterval,
  pollIntervalVariable,
} from '@flotilla/shared/device-protocol/poll-interval';
import { isInLocalMode } from '@flotilla/shared/devices/local-mode';
import { ApiClient } from './api-client.js';
import type { BackoffPolicy } from './backoff.js';
import type { Random } from './clock.js';
import { CloudlinkClient } from './cloudlink.js';
import { StateReporter } from './current-state.js';
import { errorText, type Logger } from './logger.js';
import { LogStream, type LogStreamOptions } from './log-stream.js';
import type { DeviceRuntime, PowerAction, RuntimeEvents } from './runtime/device-runtime.js';
import type { Scheduler } from './scheduler.js';
import { TargetStatePoller } from './target-state.js';

// starting → online; a reboot goes offline and comes back, a shutdown stays 'off' until the
// process restarts; 'stopped' after stop().
export type AgentPhase = 'starting' | 'online' | 'rebooting' | 'off' | 'stopped';

export type LogTuning = Pick<
  LogStreamOptions,
  'maxBufferedLines' | 'flushDelayMs' | 'cooldownMs' | 'idleCloseMs' | 'compression'
>;

export type DeviceAgentOptions = {
  baseUrl: string;
  uuid: string;
  deviceApiKey: string;
  runtime: DeviceRuntime;
  scheduler: Scheduler;
  random: Random;
  logger: Logger;
  pollIntervalMs: number;
  // Simulator: the configured interval is a ceiling the poll-interval variable cannot raise.
  // Real device: the variable wins, as on balena.
  pollIntervalIsCeiling?: boolean;
  reportIntervalMs?: number;
  metricsIntervalMs?: number;
  pollErrorBaseMs?: number;
  requestTimeoutMs?: number;
  logStream?: LogTuning;
  cloudlink?: {
    reconnect?: BackoffPolicy;
    pingIntervalMs?: number;
    stableAfterMs?: number;
    hostOsUpdates?: boolean;
  };
  // Let the action's reply leave before the device goes away.
  powerDelayMs?: number;
  onPhase?: (phase: AgentPhase) => void;
  onCloudlink?: (connected: boolean) => void;
  // The device was deactivated (false) or activated again (true), as the target state says.
  onActive?: (active: boolean) => void;
  // The server accepted a state report: the device has reported in.
  onReported?: () => void;
};

type Session = {
  poller: TargetStatePoller;
  reporter: StateReporter;
  logs: LogStream;
  cloudlink: CloudlinkClient;
};

export const localModeOnMessage =
  'Local mode on: the device applies no target state from the cloud until it is turned off';
export const localModeOffMessage = 'Local mode off: applying the target state from the cloud';
export const deactivatedMessage =
  'Device deactivated: it runs no release until it is activated again';
export const activatedMessage = 'Device activated: applying the target state from the cloud';

// One device's protocol side: target-state polling, state reports, the log stream and the
// cloudlink, around a runtime (simulated or host). A boot creates a fresh session, like a
// supervisor starting: new ETag, full first report, new connections.
export class DeviceAgent {
  readonly #options: DeviceAgentOptions;
  readonly #api: ApiClient;
  #session: Session | null = null;
  #phase: AgentPhase = 'stopped';
  #targetConfig: Readonly<Record<string, string>> = {};
  #localMode = false;
  #active = true;

  constructor(options: DeviceAgentOptions) {
    this.#options = options;
    this.#api = new ApiClient({
      baseUrl: options.baseUrl,
      token: options.deviceApiKey,
      clock: options.scheduler.clock,
      random: options.random,
      timeoutMs: options.requestTimeoutMs,
    });
  }

  get phase(): AgentPhase {
    return this.#phase;
  }

  get cloudlinkConnected(): boolean {
    return this.#session?.cloudlink.connected ?? false;
  }

  get cloudlinkAttempts(): number {
    return this.#session?.cloudlink.attempts ?? 0;
  }

  // False while the last target state said the device is deactivated.
  get active(): boolean {
    return this.#active;
  }

  get logStream(): LogStream | null {
    return this.#session?.logs ?? null;
  }

  start(): void {
    if (this.#phase !== 'stopped') return;
    this.#boot();
  }

  async stop(): Promise<void> {
    this.#setPhase('stopped');
    await this.#teardown();
    this.#options.runtime.stop();
  }

  pollIntervalMs(): number {
    const configured = this.#options.pollIntervalMs;
    const fromVariable = clampPollInterval(pollIntervalVariable(this.#targetConfig));
    if (fromVariable === undefined) return configured;
    return this.#options.pollIntervalIsCeiling ? Math.min(configured, fromVariable) : fromVariable;
  }

  #boot(): void {
    const { scheduler, random, logger, runtime, uuid, baseUrl, deviceApiKey } = this.#options;
    this.#setPhase('starting');
    const poller = new TargetStatePoller({
      api: this.#api,
      uuid,
      scheduler,
      random,
      logger,
      pollIntervalMs: () => this.pollIntervalMs(),
      onTarget: (target, force) => {
        this.#targetConfig = target.config;
        if (target.active !== this.#active) {
          this.#active = target.active;
          this.#systemLine(target.active ? activatedMessage : deactivatedMessage);
          this.#options.onActive?.(target.active);
        }
        // In local mode the device runs what is pushed to it on the network, not the cloud's
        // releases, until local mode is turned off again.
        const local = isInLocalMode(
          Object.entries(target.config).map(([name, value]) => ({ name, value })),
        );
        if (local !== this.#localMode) {
          this.#systemLine(local ? localModeOnMessage : localModeOffMessage);
        }
        this.#localMode = local;
        if (!local) runtime.applyTarget(target, force);
      },
      errorBackoff:
        this.#options.pollErrorBaseMs === undefined
          ? undefined
          : { baseMs: this.#options.pollErrorBaseMs },
    });
    const reporter = new StateReporter({
      api: this.#api,
      uuid,
      scheduler,
      random,
      logger,
      info: () => runtime.info(),
      metrics: () => runtime.metrics(),
      reportIntervalMs: this.#options.reportIntervalMs,
      metricsIntervalMs: this.#options.metricsIntervalMs,
      onReported: this.#options.onReported,
    });
    const logs = new LogStream({
      baseUrl,
      uuid,
      deviceApiKey,
      scheduler,
      random,
      logger,
      ...this.#options.logStream,
    });
    const cloudlink = new CloudlinkClient({
      baseUrl,
      uuid,
      deviceApiKey,
      scheduler,
      random,
      logger,
      handler: (request) => this.#handle(request),
      onConnectedChange: (connected) => this.#options.onCloudlink?.(connected),
      onTargetChanged: () => {
        if (this.#session?.poller === poller) poller.trigger(false);
      },
      openShell: (target, size, io) =>
        runtime.openShell?.(target, size, io) ?? { error: 'This device has no terminal' },
      openTunnel: (io) =>
        runtime.openTunnel?.(io, uuid) ?? { error: 'This device serves no public device URL' },
      ...this.#options.cloudlink,
    });
    const session: Session = { poller, reporter, logs, cloudlink };
    this.#session = session;
    const events: RuntimeEvents = {
      log: (line) => {
        if (this.#session === session) logs.write(line);
      },
      changed: () => {
        if (this.#session === session) reporter.changed();
      },
      pollNow: (force) => {
        if (this.#session === session) poller.trigger(force);
      },
      reboot: () => {
        if (this.#session !== session) return;
        void this.#powerCycle('reboot').catch((error: unknown) =>
          this.#options.logger.error(`reboot failed: ${errorText(error)}`),
        );
      },
    };
    runtime.start(events);
    poller.start();
    reporter.start();
    cloudlink.start();
    this.#setPhase('online');
  }

  // A system line of the agent's own (a self-update's steps), in the device's logs.
  systemLog(message: string): void {
    this.#systemLine(message);
  }

  // Logged here and in the device's logs, so the console shows why releases stop applying.
  #systemLine(message: string): void {
    this.#options.logger.info(message);
    this.#session?.logs.write({
      message,
      timestamp: this.#options.scheduler.now(),
      isSystem: true,
    });
  }

  async #teardown(): Promise<void> {
    const session = this.#session;
    this.#session = null;
    if (!session) return;
    session.poller.stop();
    session.reporter.stop();
    await Promise.all([session.cloudlink.stop(), session.logs.close()]);
  }

  async #handle(request: ActionRequest): Promise<{ status: number; body: unknown }> {
    const outcome = await this.#options.runtime.handleAction(request.action, request.params);
    const power = outcome.then;
    if (power) {
      this.#options.scheduler.after(this.#options.powerDelayMs ?? 500, () => {
        void this.#powerCycle(power).catch((error: unknown) =>
          this.#options.logger.error(`${power} failed: ${errorText(error)}`),
        );
      });
    }
    return { status: outcome.status, body: outcome.body };
  }

  async #powerCycle(action: PowerAction): Promise<void> {
    if (this.#phase !== 'online') return;
    this.#setPhase(action === 'reboot' ? 'rebooting' : 'off');
    await this.#teardown();
    const result = await this.#options.runtime.powerCycle(action);
    // stop() may have happened meanwhile (the getter escapes the narrowing above).
    const now = this.phase;
    if (result === 'back' && (now === 'rebooting' || now === 'off')) this.#boot();
  }

  #setPhase(phase: AgentPhase): void {
    if (this.#phase === phase) return;
    this.#phase = phase;
    this.#options.onPhase?.(phase);
  }
}
