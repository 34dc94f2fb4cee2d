import {
  type ActionRequest,
  cloudlinkPath,
  type DeviceMessage,
  isDeviceAction,
} from '@flotilla/shared/cloudlink/messages';
import { WebSocket } from 'ws';
import type { FakeDeviceWeb } from './fake-device-web.js';
import type { FakeShells } from './fake-shells.js';

// What a fake device answers to one action; undefined leaves the request unanswered.
export type FakeAnswer = (
  request: ActionRequest,
) => { status: number; body: unknown } | undefined | Promise<{ status: number; body: unknown }>;

export type FakeDevice = {
  socket: WebSocket;
  // Every action the server sent, in order.
  received: ActionRequest[];
  // How many times the server said the device's target changed.
  targetChanges: number;
  // Messages that are not an action request of the protocol (left unanswered).
  unexpected: string[];
  // Replaceable at any time.
  answer: FakeAnswer;
  closed: Promise<{ code: number; reason: string }>;
  // Rejects after closing if the server sent anything but action requests.
  close(): Promise<void>;
};

export type FakeDeviceOptions = {
  // Sent in the hello message after connecting.
  uuid?: string;
  // Sent in the hello too: whether this host runs OS updates (omitted when undefined).
  hostOsUpdates?: boolean;
  answer?: FakeAnswer;
  // false: ignore the server's pings, like a device whose network silently died.
  autoPong?: boolean;
  // Answers terminal sessions (fake-shells.ts); without it terminal messages are unexpected.
  shells?: FakeShells;
  // Answers public device URL tunnels (fake-device-web.ts).
  web?: FakeDeviceWeb;
};

const defaultAnswer: FakeAnswer = () => ({ status: 200, body: 'OK' });

const isTargetChanged = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && Reflect.get(value, 'type') === 'target-changed';

const isActionRequest = (value: unknown): value is ActionRequest => {
  if (typeof value !== 'object' || value === null) return false;
  const { type, id, action, params } = value as Record<string, unknown>;
  return (
    type === 'action' &&
    typeof id === 'string' &&
    isDeviceAction(action) &&
    typeof params === 'object' &&
    params !== null
  );
};

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

// A minimal cloudlink client speaking the agent's protocol: integration tests, contract tests and
// the bench stand it in for real agents. Resolves once the websocket is open; rejects when the
// server refuses the upgrade (the error names the HTTP status, e.g. 401). Strict: a message that
// is not an action request is recorded, and makes close() reject, rather than being ignored.
export const connectFakeDevice = (
  baseUrl: string,
  deviceKey: string,
  options: FakeDeviceOptions = {},
): Promise<FakeDevice> => {
  const url = new URL(cloudlinkPath, baseUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(url, {
    headers: { authorization: `Bearer ${deviceKey}` },
    autoPong: options.autoPong ?? true,
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  const device: FakeDevice = {
    socket,
    received: [],
    targetChanges: 0,
    unexpected: [],
    answer: options.answer ?? defaultAnswer,
    closed,
    async close() {
      if (socket.readyState !== socket.CLOSED) socket.close(1000, 'bye');
      await closed;
      const unexpected = [...device.unexpected, ...(shells?.unexpected ?? [])];
      if (unexpected.length > 0) {
        throw new Error(
          `the fake device got messages it does not understand: ${unexpected.join(', ')}`,
        );
      }
    },
  };
  const { shells, web } = options;
  socket.on('message', (data, isBinary) => {
    if (isBinary && web && Buffer.isBuffer(data) && web.frame(socket, data)) return;
    if (isBinary && shells && Buffer.isBuffer(data)) {
      shells.frame(socket, data);
      return;
    }
    const text = data.toString();
    const message = parsed(text);
    if (web?.message(socket, message)) return;
    if (shells?.message(socket, message)) return;
    if (isTargetChanged(message)) {
      device.targetChanges += 1;
      return;
    }
    if (!isActionRequest(message)) {
      device.unexpected.push(text.slice(0, 200));
      return;
    }
    device.received.push(message);
    void Promise.resolve(device.answer(message)).then((answer) => {
      if (!answer || socket.readyState !== socket.OPEN) return;
      const reply: DeviceMessage = { type: 'result', id: message.id, ...answer };
      socket.send(JSON.stringify(reply));
    });
  });
  return new Promise<FakeDevice>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () => {
      socket.off('error', reject);
      // A later error (server gone) surfaces as the close event.
      socket.on('error', () => undefined);
      if (options.uuid !== undefined) {
        const { hostOsUpdates } = options;
        const hello: DeviceMessage = {
          type: 'hello',
          uuid: options.uuid,
          agentVersion: 'fake',
          ...(hostOsUpdates === undefined ? {} : { hostOsUpdates }),
        };
        socket.send(JSON.stringify(hello));
      }
      resolve(device);
    });
  });
};
