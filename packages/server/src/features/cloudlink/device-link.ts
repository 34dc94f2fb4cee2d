import { randomUUID } from 'node:crypto';
import {
  type ActionParams,
  type ActionRequest,
  type ActionResult,
  type DeviceAction,
  readTerminalFrame,
  type ServerMessage,
  terminalFrame,
} from '@flotilla/shared/cloudlink/messages';
import type { RawData, WebSocket } from 'ws';
import { deviceDisconnected, deviceTimedOut } from './cloudlink-error.js';
import { parseDeviceMessage } from './device-messages.js';
import {
  deviceGoneMessage,
  overrunLimitBytes,
  overrunMessage,
  type TerminalEvents,
  type TerminalOpenRequest,
  type TerminalPeer,
} from './terminal-stream.js';

// Close codes this server uses (4000-4999 are the application's own).
export const closeCodes = {
  goingAway: 1001,
  serverError: 1011,
  // A newer connection of the same device took over.
  replaced: 4409,
  // The hello named another device than the key's.
  wrongDevice: 4403,
  // The key's device was deleted while connecting.
  deviceGone: 4404,
} as const;

type LinkTerminal = { events: TerminalEvents; unacknowledged: number };

type Pending = {
  resolve: (result: ActionResult) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
};

// Shared by every link of a process (one object, not closures per connection).
export type LinkEvents = {
  onHello(link: DeviceLink, hello: { uuid: string; hostOsUpdates?: boolean }): void;
  onClose(link: DeviceLink): void;
};

// One device's websocket: correlates action requests with their results by id, and fails every
// waiting request as soon as the socket closes, so nothing waits for a connection that is gone.
// Thousands stay open and idle, so a link holds little: its methods live on the prototype and
// the map of waiting requests exists only while there are some.
export class DeviceLink {
  // Tells this connection from an older or newer one of the same device (cloudlink_session).
  readonly connectionId = randomUUID();
  // Cleared by each ping tick, set by each pong: a link still false at the next tick is dead.
  alive = true;
  // The device's uuid once its session is recorded; undefined when it could not be.
  opened: Promise<string | undefined> = Promise.resolve(undefined);
  #pending: Map<string, Pending> | undefined;
  // Terminal sessions on this connection, by the number the server gave them.
  #terminals: Map<number, LinkTerminal> | undefined;
  #nextTerminal = 1;

  constructor(
    readonly socket: WebSocket,
    readonly deviceId: number,
    // The fleet the device belonged to when it connected (a move notifies the device itself).
    readonly fleetId: number,
    readonly events: LinkEvents,
  ) {
    socket.on('message', (data, isBinary) => this.#receive(data, isBinary));
    socket.on('pong', () => (this.alive = true));
    socket.on('close', () => this.#closed());
  }

  // Sends one action and resolves with the device's answer, or rejects with a CloudlinkError.
  request(action: DeviceAction, params: ActionParams, timeoutMs: number): Promise<ActionResult> {
    const id = randomUUID();
    const message: ActionRequest = { type: 'action', id, action, params };
    const { socket } = this;
    return new Promise<ActionResult>((resolve, reject) => {
      if (socket.readyState !== socket.OPEN) {
        reject(deviceDisconnected());
        return;
      }
      const pending = (this.#pending ??= new Map());
      const forget = (): void => {
        pending.delete(id);
        if (pending.size === 0 && this.#pending === pending) this.#pending = undefined;
      };
      const timer = setTimeout(() => {
        forget();
        reject(deviceTimedOut(timeoutMs));
      }, timeoutMs);
      pending.set(id, { resolve, reject, timer });
      socket.send(JSON.stringify(message), (error) => {
        if (!error) return;
        clearTimeout(timer);
        forget();
        reject(deviceDisconnected());
      });
    });
  }

  // Asks the device for a shell; its answers and output arrive through `events`. A closed socket
  // reports disconnected (asynchronously, like every other event).
  openTerminal(request: TerminalOpenRequest, events: TerminalEvents): TerminalPeer {
    const session = this.#nextTerminal++;
    const terminals = (this.#terminals ??= new Map());
    const terminal: LinkTerminal = { events, unacknowledged: 0 };
    terminals.set(session, terminal);
    const live = (): boolean => this.#terminals?.get(session) === terminal;
    this.#sendJson({ type: 'terminal-open', session, ...request });
    if (this.socket.readyState !== this.socket.OPEN) {
      queueMicrotask(() => this.#endTerminal(session, (e) => e.disconnected(deviceGoneMessage)));
    }
    return {
      input: (data) => {
        if (live()) this.#send(terminalFrame(session, data));
      },
      resize: (size) => {
        if (live()) this.#sendJson({ type: 'terminal-resize', session, ...size });
      },
      ack: (bytes) => {
        if (!live()) return;
        terminal.unacknowledged = Math.max(0, terminal.unacknowledged - bytes);
        this.#sendJson({ type: 'terminal-ack', session, bytes });
      },
      close: () => {
        if (!live()) return;
        this.#forgetTerminal(session);
        this.#sendJson({ type: 'terminal-close', session });
      },
    };
  }

  // Tells the device to poll its target state now (target-nudges.ts).
  targetChanged(): void {
    this.#sendJson({ type: 'target-changed' });
  }

  close(code: number, reason: string): void {
    const { socket } = this;
    if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) {
      socket.close(code, reason);
    }
  }

  #send(data: string | Uint8Array): void {
    const { socket } = this;
    // A failed send closes the socket, which ends every session: nothing to do per frame.
    if (socket.readyState === socket.OPEN) socket.send(data, () => undefined);
  }

  #sendJson(message: ServerMessage): void {
    this.#send(JSON.stringify(message));
  }

  #forgetTerminal(session: number): LinkTerminal | undefined {
    const terminals = this.#terminals;
    const terminal = terminals?.get(session);
    if (!terminals || !terminal) return undefined;
    terminals.delete(session);
    if (terminals.size === 0) this.#terminals = undefined;
    return terminal;
  }

  #endTerminal(session: number, last: (events: TerminalEvents) => void): void {
    const terminal = this.#forgetTerminal(session);
    if (terminal) last(terminal.events);
  }

  #output(data: RawData): void {
    if (!Buffer.isBuffer(data)) return;
    const frame = readTerminalFrame(data);
    const terminal = frame && this.#terminals?.get(frame.session);
    // Output of a session already closed here is dropped.
    if (!frame || !terminal) return;
    terminal.unacknowledged += frame.data.byteLength;
    if (terminal.unacknowledged > overrunLimitBytes) {
      this.#endTerminal(frame.session, (events) => events.disconnected(overrunMessage));
      this.#sendJson({ type: 'terminal-close', session: frame.session });
      return;
    }
    terminal.events.output(frame.data);
  }

  #receive(data: RawData, isBinary: boolean): void {
    if (isBinary) {
      this.#output(data);
      return;
    }
    const message = parseDeviceMessage(data.toString());
    if (!message) return;
    switch (message.type) {
      case 'hello':
        this.events.onHello(this, message);
        return;
      case 'terminal-opened':
        this.#terminals?.get(message.session)?.events.opened();
        return;
      case 'terminal-failed':
        this.#endTerminal(message.session, (events) => events.failed(message.message));
        return;
      case 'terminal-exit':
        this.#endTerminal(message.session, (events) => events.exit(message.code));
        return;
      case 'result':
        break;
    }
    const pending = this.#pending;
    const waiting = pending?.get(message.id);
    // A late answer to a request that already timed out is dropped.
    if (!pending || !waiting) return;
    pending.delete(message.id);
    if (pending.size === 0) this.#pending = undefined;
    clearTimeout(waiting.timer);
    waiting.resolve(message);
  }

  #closed(): void {
    const pending = this.#pending;
    this.#pending = undefined;
    for (const waiting of pending?.values() ?? []) {
      clearTimeout(waiting.timer);
      waiting.reject(deviceDisconnected());
    }
    const terminals = this.#terminals;
    this.#terminals = undefined;
    for (const terminal of terminals?.values() ?? [])
      terminal.events.disconnected(deviceGoneMessage);
    this.events.onClose(this);
  }
}
