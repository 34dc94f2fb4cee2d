import http from 'node:http';
import https from 'node:https';
import { Backoff } from './backoff.js';
import type { Random } from './clock.js';
import { createEncoder, type Encoder } from './log-encoder.js';
import { errorText, FailureLog, type Logger } from './logger.js';
import type { LogLine } from './runtime/device-runtime.js';
import type { Scheduler, TaskHandle } from './scheduler.js';
import { userAgent } from './version.js';
import { withDefaults } from './with-defaults.js';

export type LogStreamOptions = {
  // API base URL, e.g. http://localhost:8080.
  baseUrl: string;
  uuid: string;
  deviceApiKey: string;
  scheduler: Scheduler;
  random: Random;
  logger: Logger;
  // Lines kept while disconnected; the oldest are dropped beyond it.
  maxBufferedLines?: number;
  // Writes are flushed through gzip this long after the first unflushed line.
  flushDelayMs?: number;
  // Wait after a failed or refused stream before opening the next (grows on repeated failures).
  cooldownMs?: number;
  // The request is ended after this long without a line, and reopened by the next one.
  idleCloseMs?: number;
  maxMessageLength?: number;
  // A connection alive this long is taken to have accepted what was sent on it.
  confirmAfterMs?: number;
  // 'deflate' compresses (a real device, maybe on a metered link); 'stored' is gzip framing
  // without compression and without zlib's native memory (the simulator's thousands of streams).
  compression?: 'deflate' | 'stored';
};

type Phase = 'idle' | 'connecting' | 'open' | 'ending' | 'cooldown' | 'closed';

// Above this much unflushed gzip input the connection is treated as stalled: lines buffer.
const maxPendingBytes = 256 * 1024;

// One long-lived POST /device/v2/:uuid/log-stream: NDJSON through gzip in a chunked request.
// Lines wait in a bounded buffer while there is no connection and are sent once it is back.
export class LogStream {
  readonly #options: Required<LogStreamOptions>;
  readonly #backoff: Backoff;
  readonly #failures: FailureLog;
  #phase: Phase = 'idle';
  #buffer: LogLine[] = [];
  #dropped = 0;
  #droppedUnreported = 0;
  #sent = 0;
  #encoder: Encoder | null = null;
  #request: http.ClientRequest | null = null;
  #flushTask: TaskHandle | null = null;
  #timer: TaskHandle | null = null;
  #lastWriteAt = 0;
  // Lines sent on a connection younger than confirmAfterMs: a refusal (401, 429, 503…) comes
  // right after the headers, so these go back to the buffer if the connection fails that soon.
  #unconfirmed: LogLine[] | null = null;
  #confirmTask: TaskHandle | null = null;
  #unconfirmedNotice = 0;

  constructor(options: LogStreamOptions) {
    this.#options = withDefaults(
      {
        ...options,
        maxBufferedLines: 1000,
        flushDelayMs: 100,
        cooldownMs: 5000,
        idleCloseMs: 60_000,
        maxMessageLength: 10_000,
        confirmAfterMs: 2000,
        compression: 'deflate',
      },
      options,
    );
    this.#failures = new FailureLog(options.logger);
    const base = this.#options.cooldownMs;
    this.#backoff = new Backoff({ baseMs: base, maxMs: Math.max(base, 60_000) }, options.random);
  }

  get connected(): boolean {
    return this.#phase === 'open';
  }

  get buffered(): number {
    return this.#buffer.length;
  }

  // Lines lost to the buffer bound since the start.
  get dropped(): number {
    return this.#dropped;
  }

  // Lines handed to the connection since the start.
  get sent(): number {
    return this.#sent;
  }

  write(line: LogLine): void {
    if (this.#phase === 'closed') return;
    const max = this.#options.maxMessageLength;
    const bounded =
      line.message.length > max ? { ...line, message: line.message.slice(0, max) } : line;
    const pending = this.#encoder?.stream.writableLength ?? 0;
    if (this.#phase === 'open' && this.#encoder && pending < maxPendingBytes) {
      this.#send(bounded);
      return;
    }
    this.#buffer.push(bounded);
    if (this.#buffer.length > this.#options.maxBufferedLines) {
      this.#buffer.shift();
      this.#dropped++;
      this.#droppedUnreported++;
    }
    if (this.#phase === 'idle') this.#open();
  }

  // Ends the current request, flushing what was written to it; lines still waiting for a
  // connection are dropped, and later writes are ignored.
  async close(): Promise<void> {
    this.#phase = 'closed';
    this.#timer?.cancel();
    this.#flushTask?.cancel();
    const request = this.#request;
    const encoder = this.#encoder;
    if (!request || !encoder) return;
    await new Promise<void>((resolve) => {
      const done = (): void => resolve();
      request.once('close', done);
      // A server that never answers must not hold a shutdown.
      const cancel = this.#options.scheduler.clock.setTimer(() => {
        request.destroy();
        done();
      }, 2000);
      request.once('close', cancel);
      encoder.stream.end();
    });
  }

  #open(): void {
    const { baseUrl, uuid, deviceApiKey, logger } = this.#options;
    const url = new URL(`${baseUrl.replace(/\/+$/, '')}/device/v2/${uuid}/log-stream`);
    const client = url.protocol === 'https:' ? https : http;
    const encoder = createEncoder(this.#options.compression);
    const request = client.request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${deviceApiKey}`,
        'content-type': 'application/x-ndjson',
        'content-encoding': 'gzip',
        'user-agent': userAgent,
      },
    });
    this.#phase = 'connecting';
    this.#encoder = encoder;
    this.#request = request;
    encoder.stream.pipe(request);
    const isCurrent = (): boolean => this.#request === request;
    request.on('socket', (socket) => {
      socket.setKeepAlive(true, 30_000);
      const ready = (): void => {
        if (!isCurrent() || this.#phase !== 'connecting') return;
        this.#phase = 'open';
        this.#unconfirmed = [];
        this.#confirmTask = this.#options.scheduler.after(this.#options.confirmAfterMs, () => {
          this.#confirmTask = null;
          this.#unconfirmed = null;
          this.#unconfirmedNotice = 0;
          this.#backoff.reset();
          this.#failures.recover('log stream connected again');
        });
        this.#drain();
        this.#armIdleCheck();
      };
      if (socket.connecting) socket.once('connect', ready);
      else ready();
    });
    request.on('response', (response) => {
      response.resume();
      if (!isCurrent()) return;
      if (response.statusCode !== undefined && response.statusCode >= 400) {
        this.#failures.fail(`log stream refused with ${response.statusCode}`);
        this.#fail();
      } else this.#ended();
    });
    request.on('error', (error) => {
      if (!isCurrent()) return;
      logger.debug(`log stream error: ${errorText(error)}`);
      this.#fail();
    });
    request.on('close', () => {
      if (isCurrent() && this.#phase !== 'closed') this.#fail();
    });
  }

  // `notice` > 0 marks the dropped-lines notice: if refused, its count is restored, not the line.
  #send(line: LogLine, notice = 0): void {
    if (!this.#encoder) return;
    this.#encoder.stream.write(`${JSON.stringify(line)}\n`);
    if (notice > 0) this.#unconfirmedNotice += notice;
    else {
      this.#unconfirmed?.push(line);
      this.#sent++;
    }
    this.#lastWriteAt = this.#options.scheduler.now();
    this.#flushTask ??= this.#options.scheduler.after(this.#options.flushDelayMs, () => {
      this.#flushTask = null;
      this.#encoder?.flush();
    });
  }

  #drain(): void {
    if (this.#droppedUnreported > 0) {
      const count = this.#droppedUnreported;
      this.#droppedUnreported = 0;
      this.#send(
        {
          message: `${count} log lines were dropped while the log stream was disconnected`,
          timestamp: this.#options.scheduler.now(),
          isSystem: true,
        },
        count,
      );
    }
    const lines = this.#buffer;
    this.#buffer = [];
    for (const line of lines) this.#send(line);
  }

  #armIdleCheck(): void {
    const { idleCloseMs, scheduler } = this.#options;
    this.#timer?.cancel();
    const wait = Math.max(0, this.#lastWriteAt + idleCloseMs - scheduler.now());
    this.#timer = scheduler.after(wait, () => {
      this.#timer = null;
      if (this.#phase !== 'open') return;
      if (scheduler.now() - this.#lastWriteAt < idleCloseMs) {
        this.#armIdleCheck();
        return;
      }
      // Lines arriving before the server's answer wait in the buffer for the next request.
      this.#phase = 'ending';
      this.#encoder?.stream.end();
    });
  }

  #detach(): void {
    this.#confirmTask?.cancel();
    this.#confirmTask = null;
    this.#flushTask?.cancel();
    this.#flushTask = null;
    this.#timer?.cancel();
    this.#timer = null;
    const request = this.#request;
    const encoder = this.#encoder;
    this.#request = null;
    this.#encoder = null;
    encoder?.stream.unpipe();
    encoder?.stream.destroy();
    request?.destroy();
  }

  // The server answered and closed our stream (idle end): reopen only when lines are waiting.
  #ended(): void {
    if (this.#phase === 'closed') return;
    this.#unconfirmed = null;
    this.#unconfirmedNotice = 0;
    this.#detach();
    this.#phase = 'idle';
    if (this.#buffer.length > 0) this.#open();
  }

  #fail(): void {
    if (this.#phase === 'closed' || this.#phase === 'cooldown') return;
    const unconfirmed = this.#unconfirmed ?? [];
    if (this.#unconfirmed) this.#droppedUnreported += this.#unconfirmedNotice;
    this.#unconfirmed = null;
    this.#unconfirmedNotice = 0;
    this.#detach();
    if (unconfirmed.length > 0) {
      this.#sent -= unconfirmed.length;
      this.#buffer = [...unconfirmed, ...this.#buffer];
      const excess = this.#buffer.length - this.#options.maxBufferedLines;
      if (excess > 0) {
        this.#buffer.splice(0, excess);
        this.#dropped += excess;
        this.#droppedUnreported += excess;
      }
    }
    this.#phase = 'cooldown';
    const delay = Math.max(this.#options.cooldownMs, this.#backoff.fail());
    this.#timer = this.#options.scheduler.after(delay, () => {
      this.#timer = null;
      if (this.#phase !== 'cooldown') return;
      this.#phase = 'idle';
      if (this.#buffer.length > 0) this.#open();
    });
  }
}
