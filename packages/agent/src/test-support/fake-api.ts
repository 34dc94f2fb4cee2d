import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGunzip } from 'node:zlib';
import { cloudlinkPath } from '@flotilla/shared/cloudlink/messages';
import { WebSocketServer, type WebSocket } from 'ws';

export type Received = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
};

export type Handler = (request: Received, response: http.ServerResponse) => boolean | undefined;

// Deadlines of the waits: long enough for a busy machine, where a step that takes 20 ms idle can
// take seconds; a wait ends as soon as its condition holds.
const defaultWaitMs = 15_000;

// A stand-in for the Flotilla API built on node:http: tests add handlers per route, every
// request is recorded, log streams are gunzipped into lines, and the cloudlink is a ws server.
// It is strict: a request no handler answers (or a websocket to another path) gets a 500 and
// makes close() throw, so a test cannot pass on a request it did not expect.
export class FakeApi {
  readonly requests: Received[] = [];
  // "METHOD path" of every request no handler answered.
  readonly unexpected: string[] = [];
  readonly logLines: Record<string, unknown>[] = [];
  readonly logStreams: http.IncomingMessage[] = [];
  readonly sockets: WebSocket[] = [];
  readonly server: http.Server;
  readonly wss: WebSocketServer;
  #handlers: Handler[] = [];

  constructor() {
    this.server = http.createServer((request, response) => this.#route(request, response));
    this.wss = new WebSocketServer({ noServer: true });
    this.server.on('upgrade', (request, socket, head) => {
      this.upgrades++;
      if (request.url !== cloudlinkPath) {
        this.unexpected.push(`websocket ${request.url ?? ''}`);
        socket.end('HTTP/1.1 500 Unexpected\r\nConnection: close\r\n\r\n');
        return;
      }
      if (this.cloudlinkRefusal !== null) {
        socket.end(`HTTP/1.1 ${this.cloudlinkRefusal} Refused\r\nConnection: close\r\n\r\n`);
        return;
      }
      this.wss.handleUpgrade(request, socket, head, (ws) => {
        this.sockets.push(ws);
        this.wss.emit('connection', ws, request);
      });
    });
  }

  // Set to a status to refuse websocket upgrades or log streams.
  cloudlinkRefusal: number | null = null;
  logStreamRefusal: number | null = null;
  upgrades = 0;

  get url(): string {
    const address = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    for (const socket of this.wss.clients) socket.terminate();
    for (const stream of this.logStreams) stream.socket.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (this.unexpected.length > 0) {
      throw new Error(`FakeApi had no handler for: ${this.unexpected.join(', ')}`);
    }
  }

  on(handler: Handler): void {
    this.#handlers.push(handler);
  }

  // Resolves once `count` log lines have arrived in total.
  waitForLogLines(count: number, timeoutMs = defaultWaitMs): Promise<void> {
    return this.#until(() => this.logLines.length >= count, timeoutMs, `${count} log lines`);
  }

  waitFor(check: () => boolean, what: string, timeoutMs = defaultWaitMs): Promise<void> {
    return this.#until(check, timeoutMs, what);
  }

  #until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const poll = (): void => {
        if (check()) resolve();
        else if (Date.now() - started > timeoutMs)
          reject(new Error(`timed out waiting for ${what}`));
        else setTimeout(poll, 10);
      };
      poll();
    });
  }

  #route(request: http.IncomingMessage, response: http.ServerResponse): void {
    const path = request.url ?? '/';
    if (request.method === 'POST' && /^\/device\/v2\/[^/]+\/log-stream$/.test(path)) {
      this.#logStream(request, response);
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = text;
      }
      const received = { method: request.method ?? 'GET', path, headers: request.headers, body };
      this.requests.push(received);
      for (const handler of this.#handlers) {
        if (handler(received, response) === true) return;
      }
      this.unexpected.push(`${received.method} ${path}`);
      response
        .writeHead(500, { 'content-type': 'application/json' })
        .end('{"error":"FakeApi has no handler for this request"}');
    });
  }

  #logStream(request: http.IncomingMessage, response: http.ServerResponse): void {
    this.requests.push({
      method: 'POST',
      path: request.url ?? '',
      headers: request.headers,
      body: null,
    });
    if (this.logStreamRefusal !== null) {
      response.writeHead(this.logStreamRefusal, { connection: 'close' }).end();
      request.resume();
      return;
    }
    this.logStreams.push(request);
    const gunzip = createGunzip();
    let rest = '';
    gunzip.on('data', (chunk: Buffer) => {
      rest += chunk.toString('utf8');
      const lines = rest.split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines)
        if (line.trim()) this.logLines.push(JSON.parse(line) as Record<string, unknown>);
    });
    gunzip.on('end', () => response.writeHead(201).end());
    gunzip.on('error', () => response.writeHead(400).end());
    request.pipe(gunzip);
  }
}

export const json = (
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): true => {
  response
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify(body));
  return true;
};
