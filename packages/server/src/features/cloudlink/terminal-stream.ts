import { terminalWindowBytes } from '@flotilla/shared/terminal/terminal-constants';
import type { StreamTarget } from '@flotilla/shared/cloudlink/stream-target';
import type { TerminalSize } from '@flotilla/shared/terminal/terminal-protocol';

// One terminal session as the server sees it, wherever the device's cloudlink is held: the
// browser-facing side drives a TerminalPeer and hears TerminalEvents. After failed, exit or
// disconnected nothing more arrives; close() after that is harmless.

// A shell, or a tunnel to the device's web server (features/device-url), which uses the same
// session frames and flow control.
export type TerminalOpenRequest = { target: StreamTarget } & TerminalSize;

export type TerminalEvents = {
  // The device runs the shell.
  opened(): void;
  // The device could not start it (the message says why, in the agent's words).
  failed(message: string): void;
  // The shell's output; acknowledge it with ack() once the browser has drawn it.
  output(data: Uint8Array): void;
  // The shell ended.
  exit(code: number | null): void;
  // The device, its link or the node holding it went away.
  disconnected(message: string): void;
};

export type TerminalPeer = {
  input(data: Uint8Array): void;
  resize(size: TerminalSize): void;
  ack(bytes: number): void;
  // Ends the session: the device kills the shell.
  close(): void;
};

// A device sending this far beyond the window ignores flow control: its session is cut rather
// than letting the server buffer what the browser has not drawn.
export const overrunLimitBytes = 2 * terminalWindowBytes;

export const deviceGoneMessage = 'The device disconnected';
export const overrunMessage = 'The device sent more output than the terminal acknowledged';
