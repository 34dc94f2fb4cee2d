import { Duplex } from 'node:stream';
import { terminalAckStepBytes } from '@flotilla/shared/terminal/terminal-constants';
import type { TerminalEvents, TerminalPeer } from '../cloudlink/terminal-stream.js';

// Why a tunnel ended before its bytes did: the device's web server could not be reached
// (`unreachable`), the device or its link went away (`offline`), or nothing moved for too long.
export type TunnelFailure = 'unreachable' | 'offline' | 'timeout';

export class TunnelError extends Error {
  readonly failure: TunnelFailure;

  constructor(failure: TunnelFailure, message: string) {
    super(message);
    this.name = 'TunnelError';
    this.failure = failure;
  }
}

// A tunnel to the device's web server seen as a socket, so Node's HTTP client can speak HTTP
// over it (createConnection). It rides a cloudlink stream session (features/cloudlink, the web
// terminal's frames): what is written goes to the device as input, the device's bytes are
// read, and they are acknowledged once this side's reader took them, so a slow browser slows
// the device down instead of filling the server's memory (the device stops at the window).
export class TunnelSocket extends Duplex {
  #peer: TerminalPeer | undefined;
  // Bytes read from the device and not yet acknowledged to it.
  #unacknowledged = 0;
  // Bytes pushed while the reader was full: acknowledged when it asks for more.
  #held = 0;
  #idle: NodeJS.Timeout | undefined;
  readonly #idleTimeoutMs: number;

  readonly events: TerminalEvents = {
    opened: () => this.#touch(),
    failed: (message) => this.destroy(new TunnelError('unreachable', message)),
    output: (data) => {
      this.#touch();
      if (this.push(data)) this.#acknowledge(data.byteLength, false);
      else this.#held += data.byteLength;
    },
    // The device's web server closed the connection: no more bytes.
    exit: () => {
      this.#peer = undefined;
      this.push(null);
    },
    disconnected: (message) => this.destroy(new TunnelError('offline', message)),
  };

  constructor(idleTimeoutMs: number) {
    super();
    this.#idleTimeoutMs = idleTimeoutMs;
    this.#touch();
  }

  // The session's device side, once the cloudlink opened it.
  attach(peer: TerminalPeer): void {
    if (this.destroyed) peer.close();
    else this.#peer = peer;
  }

  // The device sees acknowledgements in steps (like the browser's terminal) rather than one per
  // frame; the step is well below the window, so it never stalls waiting for a short answer.
  #acknowledge(bytes: number, now: boolean): void {
    this.#unacknowledged += bytes;
    if (!now && this.#unacknowledged < terminalAckStepBytes) return;
    if (this.#unacknowledged === 0) return;
    this.#peer?.ack(this.#unacknowledged);
    this.#unacknowledged = 0;
  }

  #touch(): void {
    clearTimeout(this.#idle);
    if (this.destroyed) return;
    this.#idle = setTimeout(() => {
      this.destroy(new TunnelError('timeout', 'The device’s web server stopped answering'));
    }, this.#idleTimeoutMs);
    this.#idle.unref();
  }

  override _read(): void {
    const held = this.#held;
    this.#held = 0;
    this.#acknowledge(held, true);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.#touch();
    this.#peer?.input(chunk);
    callback();
  }

  // The protocol has no half-close: the request's end is the HTTP framing's business.
  override _final(callback: () => void): void {
    callback();
  }

  override _destroy(error: Error | null, callback: (error: Error | null) => void): void {
    clearTimeout(this.#idle);
    this.#peer?.close();
    this.#peer = undefined;
    callback(error);
  }
}
