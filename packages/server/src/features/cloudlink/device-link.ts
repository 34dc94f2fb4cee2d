import { randomUUID } from 'node:crypto';
import type {
  ActionParams,
  ActionRequest,
  ActionResult,
  DeviceAction,
} from '@flotilla/shared/cloudlink/messages';
import type { RawData, WebSocket } from 'ws';
import { deviceDisconnected, deviceTimedOut } from './cloudlink-error.js';
import { parseDeviceMessage } from './device-messages.js';

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

type Pending = {
  resolve: (result: ActionResult) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
};

// Shared by every link of a process (one object, not closures per connection).
export type LinkEvents = {
  onHello(link: DeviceLink, uuid: string): void;
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

  constructor(
    readonly socket: WebSocket,
    readonly deviceId: number,
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

  close(code: number, reason: string): void {
    const { socket } = this;
    if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) {
      socket.close(code, reason);
    }
  }

  #receive(data: RawData, isBinary: boolean): void {
    if (isBinary) return;
    const message = parseDeviceMessage(data.toString());
    if (!message) return;
    if (message.type === 'hello') {
      this.events.onHello(this, message.uuid);
      return;
    }
    // Terminal messages are not parsed yet (device-messages.ts); only action results remain.
    if (message.type !== 'result') return;
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
    this.events.onClose(this);
  }
}
