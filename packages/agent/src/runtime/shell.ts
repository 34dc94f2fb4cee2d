import type { TerminalSize, TerminalTarget } from '@flotilla/shared/terminal/terminal-protocol';

// A shell a runtime runs for a web terminal (terminal-sessions.ts drives it).

export type ShellIo = {
  output(data: Uint8Array): void;
  exit(code: number | null): void;
};

export type Shell = {
  input(data: Uint8Array): void;
  resize(size: TerminalSize): void;
  // Stop and start reading the shell's output (flow control).
  pause(): void;
  resume(): void;
  kill(): void;
};

// A runtime's shells: a Shell, or why it cannot start one (service not running...).
export type OpenShell = (
  target: TerminalTarget,
  size: TerminalSize,
  io: ShellIo,
) => Shell | { error: string };

// The public device URL's tunnel: a connection to the device's web server, driven as a Shell
// (runtime/stream-shell.ts); or why there is none.
export type OpenTunnel = (io: ShellIo) => Shell | { error: string };
