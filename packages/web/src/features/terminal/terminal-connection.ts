import {
  terminalAckStepBytes,
  terminalCloseCodes,
} from '@flotilla/shared/terminal/terminal-constants';
import {
  terminalReconnectAttempts,
  terminalReconnectDelayMs,
} from '@flotilla/shared/devices/device-panel-constants';
import type {
  TerminalServerMessage,
  TerminalSize,
  TerminalTarget,
} from '@flotilla/shared/terminal/terminal-protocol';

// One terminal session of the console: opens GET /terminal/v1,
// sends the start message, reports the session's state, passes output on (acknowledged once the
// terminal has drawn it, in steps of terminalAckStepBytes or when nothing is left to draw: flow
// control, shared/terminal/terminal-protocol.ts) and opens the session again when the device or
// its link drops it, up to 5 times 2 s apart, then fails. `restart` opens a fresh session at
// once (the service's container was replaced).

export type TerminalState =
  'connecting' | 'spawning' | 'connected' | 'reconnecting' | 'failed' | 'exited';

// The part of a browser WebSocket this class uses (tests pass a strict fake).
export type TerminalSocket = {
  binaryType: BinaryType;
  readonly readyState: number;
  send(data: string | Uint8Array): void;
  close(code?: number): void;
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
};

export type TerminalTimers = {
  setTimeout(callback: () => void, ms: number): number;
  clearTimeout(handle: number): void;
};

export type TerminalConnectionOptions = {
  url: string;
  token: () => string | undefined;
  uuid: string;
  target: TerminalTarget;
  size: () => TerminalSize;
  createSocket: (url: string) => TerminalSocket;
  timers: TerminalTimers;
  onState: (state: TerminalState, message?: string) => void;
  // Call `drawn` once the bytes are on screen.
  onOutput: (data: Uint8Array, drawn: () => void) => void;
};

const openState = 1;

const controlTypes: readonly string[] = [
  'authenticated',
  'connecting',
  'spawning',
  'ready',
  'exit',
  'disconnect',
  'refused',
] satisfies TerminalServerMessage['type'][];

const isControlType = (type: string): type is TerminalServerMessage['type'] =>
  controlTypes.includes(type);

// The type and message of a server's control message (unknown ones are ignored by the caller).
const readControl = (
  text: string,
): { type: TerminalServerMessage['type'] | 'unknown'; message?: string } => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { type: 'unknown' };
  }
  if (typeof value !== 'object' || value === null) return { type: 'unknown' };
  const type = 'type' in value ? value.type : undefined;
  const message =
    'message' in value && typeof value.message === 'string' ? value.message : undefined;
  return typeof type === 'string' && isControlType(type) ? { type, message } : { type: 'unknown' };
};

export class TerminalConnection {
  readonly #options: TerminalConnectionOptions;
  #socket: TerminalSocket | undefined;
  #attempts = 0;
  #timer: number | undefined;
  #stopped = false;
  #state: TerminalState = 'connecting';

  constructor(options: TerminalConnectionOptions) {
    this.#options = options;
  }

  get state(): TerminalState {
    return this.#state;
  }

  start(): void {
    this.#connect();
  }

  input(text: string): void {
    if (this.#socket?.readyState === openState) this.#socket.send(new TextEncoder().encode(text));
  }

  resize(size: TerminalSize): void {
    if (this.#socket?.readyState === openState) {
      this.#socket.send(JSON.stringify({ type: 'resize', ...size }));
    }
  }

  // Opens a fresh session now (the service's running install changed, so the shell's container
  // is gone). The attempts start again; a stopped connection, or a session
  // whose shell the user ended, stays over.
  restart(): void {
    if (this.#stopped || this.#state === 'exited') return;
    if (this.#timer !== undefined) this.#options.timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    const previous = this.#socket;
    this.#socket = undefined;
    previous?.close(1000);
    this.#attempts = 0;
    this.#setState('connecting');
    this.#connect();
  }

  // Ends the session for good (tab closed, device switched).
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#options.timers.clearTimeout(this.#timer);
    this.#socket?.close(1000);
    this.#socket = undefined;
  }

  #setState(state: TerminalState, message?: string): void {
    this.#state = state;
    this.#options.onState(state, message);
  }

  #connect(): void {
    const token = this.#options.token();
    if (!token) {
      this.#setState('failed', 'You are signed out');
      return;
    }
    const socket = this.#options.createSocket(this.#options.url);
    socket.binaryType = 'arraybuffer';
    this.#socket = socket;
    let lastMessage: string | undefined;
    socket.onopen = () => {
      const { cols, rows } = this.#options.size();
      const { uuid, target } = this.#options;
      socket.send(JSON.stringify({ type: 'start', token, uuid, target, cols, rows }));
    };
    // Frames handed to the terminal and not drawn yet, and drawn bytes not acknowledged yet.
    let drawing = 0;
    let unacknowledged = 0;
    const drawn = (bytes: number): void => {
      drawing--;
      unacknowledged += bytes;
      // A step's worth, or the end of a burst (the device may be waiting on the last bytes).
      if (unacknowledged < terminalAckStepBytes && drawing > 0) return;
      if (socket.readyState === openState && unacknowledged > 0) {
        socket.send(JSON.stringify({ type: 'ack', bytes: unacknowledged }));
      }
      unacknowledged = 0;
    };
    socket.onmessage = (event) => {
      if (event.data instanceof ArrayBuffer) {
        const data = new Uint8Array(event.data);
        drawing++;
        let done = false;
        this.#options.onOutput(data, () => {
          if (done) return;
          done = true;
          drawn(data.byteLength);
        });
        return;
      }
      if (typeof event.data !== 'string') return;
      const message = readControl(event.data);
      if (message.type === 'spawning') this.#setState('spawning');
      else if (message.type === 'ready') {
        this.#attempts = 0;
        this.#setState('connected');
      } else if (message.type === 'refused' || message.type === 'disconnect') {
        lastMessage = message.message;
      }
    };
    socket.onclose = (event) => {
      if (this.#socket !== socket || this.#stopped) return;
      this.#socket = undefined;
      if (event.code === terminalCloseCodes.exited) {
        this.#setState('exited');
        return;
      }
      if (event.code === terminalCloseCodes.refused) {
        this.#setState('failed', lastMessage);
        return;
      }
      if (this.#attempts >= terminalReconnectAttempts) {
        this.#setState('failed', lastMessage ?? 'The terminal could not reconnect');
        return;
      }
      this.#attempts++;
      this.#setState('reconnecting', lastMessage);
      this.#timer = this.#options.timers.setTimeout(() => {
        this.#timer = undefined;
        if (!this.#stopped) this.#connect();
      }, terminalReconnectDelayMs);
    };
  }
}
