import { terminalPath } from '@flotilla/shared/terminal/terminal-constants';
import {
  type TerminalServerMessage,
  type TerminalTarget,
} from '@flotilla/shared/terminal/terminal-protocol';
import { WebSocket } from 'ws';

// A browser's side of GET /terminal/v1 for tests and the bench: sends start, records control
// messages and output, and acknowledges output as it arrives (unless told not to).

export type TerminalClient = {
  socket: WebSocket;
  messages: TerminalServerMessage[];
  // Output bytes received so far.
  received: number;
  // The output as text (tests keep it small; the flood test counts bytes only).
  text(): string;
  send(input: string): void;
  resize(cols: number, rows: number): void;
  // Acknowledges what has arrived and was not acknowledged yet.
  ackAll(): void;
  // Resolves when the output contains `needle`, or a control message matches.
  waitForText(needle: string): Promise<void>;
  waitForMessage(type: TerminalServerMessage['type']): Promise<TerminalServerMessage>;
  closed: Promise<{ code: number; reason: string }>;
};

export type TerminalClientOptions = {
  token: string;
  uuid: string;
  target: TerminalTarget;
  // false: acknowledge only through ackAll().
  autoAck?: boolean;
  // Keep the output as text (default true).
  keepText?: boolean;
};

const isServerMessage = (value: unknown): value is TerminalServerMessage =>
  typeof value === 'object' && value !== null && 'type' in value;

export const connectTerminal = (
  baseUrl: string,
  options: TerminalClientOptions,
): TerminalClient => {
  const url = new URL(terminalPath, baseUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(url);
  socket.on('error', () => undefined);
  const decoder = new TextDecoder();
  let text = '';
  let unacknowledged = 0;
  const listeners = new Set<() => void>();
  const notify = (): void => {
    for (const listener of [...listeners]) listener();
  };
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      notify();
    });
  });
  const client: TerminalClient = {
    socket,
    messages: [],
    received: 0,
    text: () => text,
    send: (input) => socket.send(Buffer.from(input)),
    resize: (cols, rows) => socket.send(JSON.stringify({ type: 'resize', cols, rows })),
    ackAll() {
      if (unacknowledged === 0 || socket.readyState !== socket.OPEN) return;
      socket.send(JSON.stringify({ type: 'ack', bytes: unacknowledged }));
      unacknowledged = 0;
    },
    waitForText: (needle) => until(() => text.includes(needle), `output "${needle}"`),
    async waitForMessage(type) {
      let found: TerminalServerMessage | undefined;
      await until(() => {
        found = client.messages.find((message) => message.type === type);
        return found !== undefined;
      }, `message ${type}`);
      if (!found) throw new Error(`no ${type}`);
      return found;
    },
    closed,
  };
  const until = (check: () => boolean, what: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const listener = (): void => {
        if (check()) {
          listeners.delete(listener);
          resolve();
        } else if (socket.readyState === socket.CLOSED) {
          listeners.delete(listener);
          reject(
            new Error(
              `the terminal closed before ${what}: ${JSON.stringify(client.messages)} ${text.slice(-200)}`,
            ),
          );
        }
      };
      listeners.add(listener);
      listener();
    });
  socket.on('open', () => {
    socket.send(
      JSON.stringify({
        type: 'start',
        token: options.token,
        uuid: options.uuid,
        target: options.target,
        cols: 80,
        rows: 24,
      }),
    );
  });
  socket.on('message', (data, isBinary) => {
    if (isBinary && Buffer.isBuffer(data)) {
      client.received += data.byteLength;
      unacknowledged += data.byteLength;
      if (options.keepText ?? true) text += decoder.decode(data, { stream: true });
      if (options.autoAck ?? true) client.ackAll();
    } else {
      const value: unknown = JSON.parse(data.toString());
      if (isServerMessage(value)) client.messages.push(value);
    }
    notify();
  });
  return client;
};
