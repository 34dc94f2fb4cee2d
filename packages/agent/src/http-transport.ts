import http from 'node:http';
import https from 'node:https';
import { text } from 'node:stream/consumers';

// How the API client's calls reach the server: one request, the whole answer as text. Node's
// http module, which the log stream, the cloudlink and the engine's client load anyway, rather
// than the global fetch: fetch loads undici and compiles its WebAssembly HTTP parser, about 7 MB
// of resident memory on a device for the same few requests (`npm run bench`, agent footprint).

export type TransportRequest = {
  method: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
  signal: AbortSignal;
};

export type ResponseHeaders = { get(name: string): string | null };

export type TransportResponse = { status: number; headers: ResponseHeaders; text: string };

export type HttpTransport = (url: string, request: TransportRequest) => Promise<TransportResponse>;

// Connections are kept between calls (a report every few seconds, a poll every few minutes), as
// fetch kept them, without a cap: the simulator's devices share these.
const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

const headersOf = (message: http.IncomingMessage): ResponseHeaders => ({
  get: (name) => {
    const value = message.headers[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  },
});

export const httpTransport: HttpTransport = (url, request) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    const client = secure ? https : http;
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const outgoing = client.request(target, {
      method: request.method,
      headers: {
        ...request.headers,
        ...(body === undefined ? {} : { 'content-length': String(body.length) }),
      },
      agent: secure ? agents['https:'] : agents['http:'],
      signal: request.signal,
    });
    outgoing.once('error', reject);
    outgoing.once('response', (message) => {
      text(message).then(
        (answer) =>
          resolve({ status: message.statusCode ?? 0, headers: headersOf(message), text: answer }),
        reject,
      );
    });
    outgoing.end(body);
  });

// The same over a fetch function (tests answer with Response objects).
export const fetchTransport =
  (fetchFunction: typeof fetch): HttpTransport =>
  async (url, request) => {
    const response = await fetchFunction(url, request);
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
