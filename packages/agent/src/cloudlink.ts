import {
  type ActionParams,
  type ActionRequest,
  type ActionResult,
  cloudlinkPath,
  type DeviceMessage,
  type Hello,
  isDeviceAction,
} from '@flotilla/shared/cloudlink/messages';
import WebSocket from 'ws';
import { Backoff, type BackoffPolicy, parseRetryAfter } from './backoff.js';
import type { Random } from './clock.js';
import { errorText, FailureLog, type Logger } from './logger.js';
import type { Scheduler, TaskHandle } from './scheduler.js';
import type { OpenShell, OpenTunnel } from './runtime/shell.js';
import { TerminalSessions } from './terminal-sessions.js';
import { agentVersion, userAgent } from './version.js';

export type ActionHandler = (request: ActionRequest) => Promise<{ status: number; body: unknown }>;

export type CloudlinkOptions = {
  // API base URL (http or https); the socket goes to its ws(s) twin at cloudlinkPath.
  baseUrl: string;
  uuid: string;
  deviceApiKey: string;
  scheduler: Scheduler;
  random: Random;
  logger: Logger;
  handler: ActionHandler;
  reconnect?: BackoffPolicy;
  // We ping the server this often; no pong before the next ping means a dead link.
  pingIntervalMs?: number;
  // A link that stayed up this long resets the reconnect backoff.
  stableAfterMs?: number;
  onConnectedChange?: (connected: boolean) => void;
  // The server says the device's target changed: poll it now.
  onTargetChanged?: () => void;
  // The runtime's shells for web terminals; without it terminal sessions are refused.
  openShell?: OpenShell;
  // The device's web server for the public device URL; without it those tunnels are refused.
  openTunnel?: OpenTunnel;
  // Told to the server in the hello, so it refuses an OS update this host cannot run at once.
  hostOsUpdates?: boolean;
};

type Phase = 'stopped' | 'connecting' | 'open' | 'waiting';

const defaultReconnect: BackoffPolicy = { baseMs: 1000, maxMs: 60_000 };

export const cloudlinkUrl = (baseUrl: string): string =>
  `${baseUrl.replace(/\/+$/, '').replace(/^http/, 'ws')}${cloudlinkPath}`;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const toParams = (value: unknown): ActionParams => {
  const raw = isRecord(value) ? value : {};
  const params: ActionParams = {};
  if (typeof raw.force === 'boolean') params.force = raw.force;
  if (typeof raw.appId === 'number') params.appId = raw.appId;
  if (typeof raw.imageId === 'number') params.imageId = raw.imageId;
  if (typeof raw.serviceName === 'string') params.serviceName = raw.serviceName;
  if (typeof raw.sentAt === 'number') params.sentAt = raw.sentAt;
  return params;
};

// The device's websocket to the server (it replaces balena's VPN for actions): Bearer device
// key, a Hello on connect, one ActionResult per ActionRequest, reconnect with backoff + jitter.
export class CloudlinkClient {
  readonly #options: CloudlinkOptions;
  readonly #backoff: Backoff;
  readonly #failures: FailureLog;
  #phase: Phase = 'stopped';
  #socket: WebSocket | null = null;
  #timer: TaskHandle | null = null;
  #pingTimer: TaskHandle | null = null;
  #openedAt = 0;
  #awaitingPong = false;
  #connections = 0;
  #attempts = 0;
  #lastError = '';
  readonly #terminals: TerminalSessions;

  constructor(options: CloudlinkOptions) {
    this.#options = options;
    this.#terminals = new TerminalSessions(options.openShell, options.openTunnel);
    this.#failures = new FailureLog(options.logger);
    this.#backoff = new Backoff(
      options.reconnect ?? { baseMs: 1000, maxMs: 60_000 },
      options.random,
    );
  }

  get connected(): boolean {
    return this.#phase === 'open';
  }

  // How many times the link came up (tests watch reconnects with it).
  get connections(): number {
    return this.#connections;
  }

  // How many times it tried to connect (the simulator counts the attempts a reconnect took).
  get attempts(): number {
    return this.#attempts;
  }

  start(): void {
    if (this.#phase !== 'stopped') return;
    this.#connect();
  }

  // Web terminal sessions running (tests).
  get terminalCount(): number {
    return this.#terminals.count;
  }

  async stop(): Promise<void> {
    this.#phase = 'stopped';
    this.#terminals.attach(undefined);
    this.#timer?.cancel();
    this.#timer = null;
    this.#pingTimer?.cancel();
    this.#pingTimer = null;
    const socket = this.#socket;
    this.#socket = null;
    if (!socket) return;
    const wasOpen = socket.readyState === WebSocket.OPEN;
    if (wasOpen) this.#options.onConnectedChange?.(false);
    await new Promise<void>((resolve) => {
      if (socket.readyState === WebSocket.CLOSED) {
        resolve();
        return;
      }
      socket.once('close', () => resolve());
      if (wasOpen) {
        socket.close(1001, 'device going away');
        // A peer that never completes the closing handshake must not hold us.
        const cancel = this.#options.scheduler.clock.setTimer(() => socket.terminate(), 2000);
        socket.once('close', cancel);
      } else socket.terminate();
    });
  }

  #connect(): void {
    const { baseUrl, deviceApiKey, logger } = this.#options;
    this.#attempts++;
    this.#phase = 'connecting';
    const socket = new WebSocket(cloudlinkUrl(baseUrl), {
      headers: { authorization: `Bearer ${deviceApiKey}`, 'user-agent': userAgent },
      handshakeTimeout: 30_000,
      // Frames are small JSON; compression would cost each link its own zlib contexts.
      perMessageDeflate: false,
    });
    this.#socket = socket;
    const isCurrent = (): boolean => this.#socket === socket;
    socket.on('open', () => {
      if (!isCurrent()) return;
      this.#phase = 'open';
      this.#failures.recover('cloudlink connected again');
      this.#openedAt = this.#options.scheduler.now();
      this.#connections++;
      const { hostOsUpdates } = this.#options;
      const hello: Hello = {
        type: 'hello',
        uuid: this.#options.uuid,
        agentVersion,
        ...(hostOsUpdates === undefined ? {} : { hostOsUpdates }),
      };
      this.#send(socket, hello);
      this.#terminals.attach({
        send: (message) => this.#send(socket, message),
        sendBinary: (data) => {
          if (socket.readyState === WebSocket.OPEN) socket.send(data);
        },
      });
      this.#awaitingPong = false;
      this.#armPing(socket);
      this.#options.onConnectedChange?.(true);
    });
    socket.on('message', (data, isBinary) => {
      if (!isCurrent()) return;
      this.#awaitingPong = false;
      if (isBinary) {
        if (Buffer.isBuffer(data)) this.#terminals.frame(data);
        return;
      }
      this.#receive(socket, data.toString());
    });
    socket.on('ping', () => {
      this.#awaitingPong = false;
    });
    socket.on('pong', () => {
      this.#awaitingPong = false;
    });
    socket.on('unexpected-response', (request, response) => {
      if (!isCurrent()) return;
      const retryAfter = parseRetryAfter(
        response.headers['retry-after'] ?? null,
        this.#options.scheduler.now(),
      );
      this.#failures.fail(`cloudlink refused with ${response.statusCode ?? 'no status'}`);
      response.resume();
      request.destroy();
      this.#lost(retryAfter);
    });
    socket.on('error', (error) => {
      if (!isCurrent()) return;
      this.#lastError = errorText(error);
      logger.debug(`cloudlink error: ${this.#lastError}`);
    });
    socket.on('close', (code, reason) => {
      if (!isCurrent()) return;
      // 44xx: the server will not take this device (replaced by another connection with the
      // same key, wrong device, device deleted): retrying fast cannot help.
      const refused = code >= 4400 && code < 4500;
      if (refused)
        this.#failures.fail(`cloudlink closed by the server: ${code} ${reason.toString()}`);
      this.#lost(refused ? (this.#options.reconnect ?? defaultReconnect).maxMs : null);
    });
  }

  #lost(retryAfterMs: number | null): void {
    // No shell outlives the link that carried its terminal.
    this.#terminals.attach(undefined);
    const socket = this.#socket;
    this.#socket = null;
    socket?.removeAllListeners('close');
    socket?.on('error', () => undefined);
    if (socket && socket.readyState !== WebSocket.CLOSED) socket.terminate();
    this.#pingTimer?.cancel();
    this.#pingTimer = null;
    if (this.#phase === 'stopped') return;
    const wasOpen = this.#phase === 'open';
    const stableAfter = this.#options.stableAfterMs ?? 10_000;
    if (wasOpen && this.#options.scheduler.now() - this.#openedAt >= stableAfter) {
      this.#backoff.reset();
    }
    if (wasOpen) {
      this.#options.logger.info('cloudlink closed; reconnecting');
      this.#options.onConnectedChange?.(false);
    } else if (retryAfterMs === null) {
      this.#failures.fail(
        `cloudlink connection failed${this.#lastError ? `: ${this.#lastError}` : ''}`,
      );
    }
    this.#lastError = '';
    this.#phase = 'waiting';
    const delay = this.#backoff.fail(retryAfterMs);
    this.#options.logger.debug(`cloudlink reconnecting in ${delay} ms`);
    this.#timer = this.#options.scheduler.after(delay, () => {
      this.#timer = null;
      if (this.#phase === 'waiting') this.#connect();
    });
  }

  // Any frame from the server proves the link alive; a ping unanswered for a whole interval
  // means a half-open TCP connection, which only a reconnect cures.
  #armPing(socket: WebSocket): void {
    const interval = this.#options.pingIntervalMs ?? 30_000;
    this.#pingTimer = this.#options.scheduler.after(interval, () => {
      this.#pingTimer = null;
      if (this.#socket !== socket || socket.readyState !== WebSocket.OPEN) return;
      if (this.#awaitingPong) {
        this.#options.logger.warn('cloudlink silent for a whole ping interval; reconnecting');
        this.#lost(null);
        return;
      }
      this.#awaitingPong = true;
      socket.ping();
      this.#armPing(socket);
    });
  }

  #receive(socket: WebSocket, text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.#options.logger.warn('cloudlink message is not JSON; ignored');
      return;
    }
    if (isRecord(message) && this.#terminals.handle(message)) return;
    if (isRecord(message) && message.type === 'target-changed') {
      this.#options.onTargetChanged?.();
      return;
    }
    if (!isRecord(message) || message.type !== 'action' || typeof message.id !== 'string') {
      this.#options.logger.warn('cloudlink message is not an action request; ignored');
      return;
    }
    const id = message.id;
    if (!isDeviceAction(message.action)) {
      this.#send(socket, { type: 'result', id, status: 400, body: { Error: 'Unknown action' } });
      return;
    }
    const request: ActionRequest = {
      type: 'action',
      id,
      action: message.action,
      params: toParams(message.params),
    };
    void this.#options.handler(request).then(
      (answer) => this.#send(socket, { type: 'result', id, ...answer }),
      (error: unknown) =>
        this.#send(socket, { type: 'result', id, status: 500, body: { Error: errorText(error) } }),
    );
  }

  #send(socket: WebSocket, message: DeviceMessage | ActionResult): void {
    if (socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify(message));
  }
}
