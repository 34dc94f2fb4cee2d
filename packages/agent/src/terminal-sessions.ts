import { terminalWindowBytes } from '@flotilla/shared/terminal/terminal-constants';
import {
  type DeviceMessage,
  readTerminalFrame,
  terminalFrame,
} from '@flotilla/shared/cloudlink/messages';
import { type StreamTarget, streamTarget } from '@flotilla/shared/cloudlink/stream-target';
import type { OpenShell, OpenTunnel, Shell, ShellIo } from './runtime/shell.js';
import { terminalSize, type TerminalSize } from '@flotilla/shared/terminal/terminal-protocol';

// The device's side of web terminals (shared/cloudlink/messages.ts): each terminal-open starts a
// shell from the runtime, its output goes up as binary frames, keystrokes come down. Output is
// flow-controlled: once a window of bytes is unacknowledged the shell is paused until the
// server's acknowledgements (the browser's, relayed) come back, so a `cat` of a large file runs
// at the pace of the browser. Losing the cloudlink kills every shell. The public device URL's
// tunnels (target `device-url`) are sessions too, whose "shell" is a connection to the device's
// web server (runtime/stream-shell.ts).

export type TerminalLink = {
  send(message: DeviceMessage): void;
  sendBinary(data: Uint8Array): void;
};

type ServerTerminalMessage =
  | { type: 'terminal-open'; session: number; target: StreamTarget; size: TerminalSize }
  | { type: 'terminal-resize'; session: number; size: TerminalSize }
  | { type: 'terminal-ack'; session: number; bytes: number }
  | { type: 'terminal-close'; session: number };

const isSession = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffff_ffff;

// Reads a server's terminal message; undefined for anything malformed.
const parseTerminalMessage = (
  message: Record<string, unknown>,
): ServerTerminalMessage | undefined => {
  const { type, session } = message;
  if (!isSession(session)) return undefined;
  const size = terminalSize.safeParse({ cols: message.cols, rows: message.rows });
  switch (type) {
    case 'terminal-open': {
      const target = streamTarget.safeParse(message.target);
      return target.success && size.success
        ? { type, session, target: target.data, size: size.data }
        : undefined;
    }
    case 'terminal-resize':
      return size.success ? { type, session, size: size.data } : undefined;
    case 'terminal-ack':
      return typeof message.bytes === 'number' && message.bytes >= 0
        ? { type, session, bytes: message.bytes }
        : undefined;
    case 'terminal-close':
      return { type, session };
    default:
      return undefined;
  }
};

type Running = { shell: Shell; unacknowledged: number; paused: boolean };

export class TerminalSessions {
  readonly #openShell: OpenShell | undefined;
  readonly #openTunnel: OpenTunnel | undefined;
  readonly #sessions = new Map<number, Running>();
  #link: TerminalLink | undefined;

  constructor(openShell: OpenShell | undefined, openTunnel?: OpenTunnel) {
    this.#openShell = openShell;
    this.#openTunnel = openTunnel;
  }

  get count(): number {
    return this.#sessions.size;
  }

  // The link the sessions talk through; a new link (reconnect) ends the old one's sessions.
  attach(link: TerminalLink | undefined): void {
    this.closeAll();
    this.#link = link;
  }

  // True when `message` is a terminal message (handled, or invalid and ignored).
  handle(message: Record<string, unknown>): boolean {
    if (typeof message.type !== 'string' || !message.type.startsWith('terminal-')) return false;
    const value = parseTerminalMessage(message);
    if (!value) return true;
    if (value.type === 'terminal-open') {
      this.#open(value.session, value.target, value.size);
      return true;
    }
    const running = this.#sessions.get(value.session);
    if (!running) return true;
    switch (value.type) {
      case 'terminal-resize':
        running.shell.resize(value.size);
        return true;
      case 'terminal-ack':
        running.unacknowledged = Math.max(0, running.unacknowledged - value.bytes);
        if (running.paused && running.unacknowledged < terminalWindowBytes) {
          running.paused = false;
          running.shell.resume();
        }
        return true;
      case 'terminal-close':
        this.#sessions.delete(value.session);
        running.shell.kill();
        return true;
    }
  }

  frame(data: Uint8Array): void {
    const frame = readTerminalFrame(data);
    if (frame) this.#sessions.get(frame.session)?.shell.input(frame.data);
  }

  closeAll(): void {
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    for (const running of sessions) running.shell.kill();
  }

  #opener(
    target: StreamTarget,
  ): ((io: ShellIo, size: TerminalSize) => ReturnType<OpenShell>) | string {
    if (target.kind === 'device-url') {
      const openTunnel = this.#openTunnel;
      return openTunnel ? (io) => openTunnel(io) : 'This agent serves no public device URL';
    }
    const openShell = this.#openShell;
    return openShell ? (io, size) => openShell(target, size, io) : 'This agent has no terminal';
  }

  #open(id: number, target: StreamTarget, size: TerminalSize): void {
    const link = this.#link;
    if (!link || this.#sessions.has(id)) return;
    const opener = this.#opener(target);
    if (typeof opener === 'string') {
      link.send({ type: 'terminal-failed', session: id, message: opener });
      return;
    }
    // Set before the shell exists: a shell may write (or exit) while it starts.
    let running: Running | undefined;
    const live = (): boolean => running !== undefined && this.#sessions.get(id) === running;
    const early: Uint8Array[] = [];
    let earlyExit: { code: number | null } | undefined;
    const io: ShellIo = {
      output: (data) => {
        if (!running) {
          early.push(data);
          return;
        }
        if (!live()) return;
        running.unacknowledged += data.byteLength;
        link.sendBinary(terminalFrame(id, data));
        if (!running.paused && running.unacknowledged >= terminalWindowBytes) {
          running.paused = true;
          running.shell.pause();
        }
      },
      exit: (code) => {
        if (!running) {
          earlyExit = { code };
          return;
        }
        if (!live()) return;
        this.#sessions.delete(id);
        running = undefined;
        link.send({ type: 'terminal-exit', session: id, code });
      },
    };
    let opened: Shell | { error: string };
    try {
      opened = opener(io, size);
    } catch (error) {
      opened = { error: error instanceof Error ? error.message : String(error) };
    }
    if ('error' in opened) {
      link.send({ type: 'terminal-failed', session: id, message: opened.error });
      return;
    }
    running = { shell: opened, unacknowledged: 0, paused: false };
    this.#sessions.set(id, running);
    link.send({ type: 'terminal-opened', session: id });
    for (const data of early.splice(0)) io.output(data);
    if (earlyExit) io.exit(earlyExit.code);
  }
}
