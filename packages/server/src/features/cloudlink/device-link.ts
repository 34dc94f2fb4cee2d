import { randomUUID } from 'node:crypto';
import type {
  ActionParams,
  ActionRequest,
  ActionResult,
  DeviceAction,
} from '@flotilla/shared/cloudlink/messages';
import type { WebSocket } from 'ws';
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

export type DeviceLink = {
  deviceId: number;
  // Tells this connection from an older or newer one of the same device (cloudlink_session).
  connectionId: string;
  socket: WebSocket;
  // Sends one action and resolves with the device's answer, or rejects with a CloudlinkError.
  request(action: DeviceAction, params: ActionParams, timeoutMs: number): Promise<ActionResult>;
  // Cleared by each ping tick, set by each pong: a link still false at the next tick is dead.
  alive: boolean;
  close(code: number, reason: string): void;
};

export type LinkEvents = {
  onHello(link: DeviceLink, uuid: string): void;
  onClose(link: DeviceLink): void;
};

// One device's websocket: correlates action requests with their results by id, and fails every
// waiting request as soon as the socket closes, so nothing waits for a connection that is gone.
export const createDeviceLink = (
  socket: WebSocket,
  deviceId: number,
  events: LinkEvents,
): DeviceLink => {
  const pending = new Map<string, Pending>();

  const link: DeviceLink = {
    deviceId,
    connectionId: randomUUID(),
    socket,
    alive: true,
    request(action, params, timeoutMs) {
      const id = randomUUID();
      const message: ActionRequest = { type: 'action', id, action, params };
      return new Promise<ActionResult>((resolve, reject) => {
        if (socket.readyState !== socket.OPEN) {
          reject(deviceDisconnected());
          return;
        }
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(deviceTimedOut(timeoutMs));
        }, timeoutMs);
        pending.set(id, { resolve, reject, timer });
        socket.send(JSON.stringify(message), (error) => {
          if (!error) return;
          clearTimeout(timer);
          pending.delete(id);
          reject(deviceDisconnected());
        });
      });
    },
    close(code, reason) {
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) {
        socket.close(code, reason);
      }
    },
  };

  socket.on('message', (data, isBinary) => {
    if (isBinary) return;
    const message = parseDeviceMessage(data.toString());
    if (!message) return;
    if (message.type === 'hello') {
      events.onHello(link, message.uuid);
      return;
    }
    const waiting = pending.get(message.id);
    // A late answer to a request that already timed out is dropped.
    if (!waiting) return;
    pending.delete(message.id);
    clearTimeout(waiting.timer);
    waiting.resolve(message);
  });
  socket.on('pong', () => {
    link.alive = true;
  });
  socket.on('close', () => {
    for (const [id, waiting] of pending) {
      pending.delete(id);
      clearTimeout(waiting.timer);
      waiting.reject(deviceDisconnected());
    }
    events.onClose(link);
  });
  return link;
};
