import { terminalWindowBytes } from '@flotilla/shared/terminal/terminal-constants';
import {
  type DeviceMessage,
  readTerminalFrame,
  terminalFrame,
} from '@flotilla/shared/cloudlink/messages';
import { type TerminalSize } from '@flotilla/shared/terminal/terminal-protocol';
import type { WebSocket } from 'ws';

// The terminal side of a fake device: each terminal-open starts a scripted "shell" that echoes
// what it gets, line by line, and understands three commands: `exit` (ends with code 0),
// `flood <bytes>` (writes that many bytes, honouring the flow-control window as the agent
// must), and anything else echoed back as `echo:<line>`. A service named `stopped` fails to
// open, like a service that is not running. Strict: a message for a session it does not know
// is recorded in `unexpected`.

export type FakeShell = {
  session: number;
  target: unknown;
  sizes: TerminalSize[];
  closed: boolean;
  // Output bytes sent and not yet acknowledged; never above the window.
  unacknowledged: number;
  // The most it ever was.
  peakUnacknowledged: number;
};

export type FakeShells = {
  shells: Map<number, FakeShell>;
  unexpected: string[];
  // True when the message was a terminal message (handled or recorded).
  message(socket: WebSocket, value: unknown): boolean;
  frame(socket: WebSocket, data: Uint8Array): void;
  // Resolves once the shell of `session` has been closed by the server.
  whenClosed(session: number): Promise<void>;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

export const createFakeShells = (): FakeShells => {
  const shells = new Map<number, FakeShell>();
  const unexpected: string[] = [];
  const lines = new Map<number, string>();
  const floods = new Map<number, { left: number; resume: () => void }>();
  const closeWaiters = new Map<number, () => void>();

  const send = (socket: WebSocket, message: DeviceMessage): void => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const write = (socket: WebSocket, shell: FakeShell, text: string | Uint8Array): void => {
    const data = typeof text === 'string' ? new TextEncoder().encode(text) : text;
    shell.unacknowledged += data.byteLength;
    shell.peakUnacknowledged = Math.max(shell.peakUnacknowledged, shell.unacknowledged);
    if (socket.readyState === socket.OPEN) socket.send(terminalFrame(shell.session, data));
  };

  // Writes up to the window, then waits for acknowledgements.
  const flood = (socket: WebSocket, shell: FakeShell, bytes: number): void => {
    const chunk = new Uint8Array(16 * 1024).fill(0x61);
    const state = {
      left: bytes,
      resume: () => {
        while (state.left > 0 && !shell.closed) {
          const room = terminalWindowBytes - shell.unacknowledged;
          if (room <= 0) return;
          const size = Math.min(chunk.byteLength, state.left, room);
          write(socket, shell, chunk.subarray(0, size));
          state.left -= size;
        }
        const done = '\r\nflood done\r\n';
        if (shell.closed || terminalWindowBytes - shell.unacknowledged < done.length) return;
        floods.delete(shell.session);
        write(socket, shell, done);
      },
    };
    floods.set(shell.session, state);
    state.resume();
  };

  const line = (socket: WebSocket, shell: FakeShell, text: string): void => {
    if (text === 'exit') {
      shell.closed = true;
      send(socket, { type: 'terminal-exit', session: shell.session, code: 0 });
      return;
    }
    const flooding = /^flood (\d+)$/.exec(text);
    if (flooding) {
      flood(socket, shell, Number(flooding[1]));
      return;
    }
    write(socket, shell, `echo:${text}\r\n`);
  };

  return {
    shells,
    unexpected,
    message(socket, value) {
      if (!isRecord(value) || typeof value.type !== 'string') return false;
      if (!value.type.startsWith('terminal-')) return false;
      const session = typeof value.session === 'number' ? value.session : -1;
      const shell = shells.get(session);
      if (value.type === 'terminal-open' && !shell) {
        const size = { cols: Number(value.cols), rows: Number(value.rows) };
        const created: FakeShell = {
          session,
          target: value.target,
          sizes: [size],
          closed: false,
          unacknowledged: 0,
          peakUnacknowledged: 0,
        };
        shells.set(session, created);
        const target = value.target;
        if (isRecord(target) && target.service === 'stopped') {
          created.closed = true;
          send(socket, {
            type: 'terminal-failed',
            session,
            message: 'Service stopped is not running',
          });
          return true;
        }
        send(socket, { type: 'terminal-opened', session });
        write(socket, created, 'fake shell\r\n$ ');
        return true;
      }
      if (!shell) {
        unexpected.push(JSON.stringify(value).slice(0, 200));
        return true;
      }
      switch (value.type) {
        case 'terminal-resize':
          shell.sizes.push({ cols: Number(value.cols), rows: Number(value.rows) });
          return true;
        case 'terminal-ack':
          shell.unacknowledged = Math.max(0, shell.unacknowledged - Number(value.bytes));
          floods.get(session)?.resume();
          return true;
        case 'terminal-close':
          shell.closed = true;
          closeWaiters.get(session)?.();
          return true;
        default:
          unexpected.push(JSON.stringify(value).slice(0, 200));
          return true;
      }
    },
    frame(socket, data) {
      const frame = readTerminalFrame(data);
      const shell = frame && shells.get(frame.session);
      if (!frame || !shell || shell.closed) {
        unexpected.push(`frame for session ${frame?.session ?? '?'}`);
        return;
      }
      let buffer = (lines.get(shell.session) ?? '') + new TextDecoder().decode(frame.data);
      let newline = buffer.search(/[\r\n]/);
      while (newline >= 0) {
        line(socket, shell, buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
        newline = buffer.search(/[\r\n]/);
      }
      lines.set(shell.session, buffer);
    },
    whenClosed(session) {
      if (shells.get(session)?.closed) return Promise.resolve();
      return new Promise((resolve) => closeWaiters.set(session, resolve));
    },
  };
};
