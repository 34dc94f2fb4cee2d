import { onTestFinished } from 'vitest';

// A fake API behind an injected fetch: routes by method and path, records every call. It is
// strict: a request no route takes rejects, and fails the test that made it even if the code
// under test swallowed the rejection (a fake that answered 404 would let a wrong path pass).

export type FakeCall = {
  method: string;
  url: URL;
  // Path and query as sent, e.g. '/v7/device?$top=350'.
  target: string;
  headers: Headers;
  body: unknown;
  signal?: AbortSignal;
};

export type FakeReply =
  | {
      status?: number;
      json?: unknown;
      text?: string;
      html?: string;
      headers?: Record<string, string>;
    }
  | 'network-error';

export type FakeHandler = (call: FakeCall) => FakeReply | Promise<FakeReply>;

export type FakeServer = {
  fetch: typeof fetch;
  calls: FakeCall[];
  // "METHOD path" of every request no route took.
  unexpected: string[];
  on(method: string, path: string | RegExp, handler: FakeHandler | FakeReply): void;
  // Every request fails as if the network were down (until set back to false).
  offline: boolean;
};

export const testApiUrl = 'http://api.test';

const toResponse = (reply: Exclude<FakeReply, 'network-error'>): Response => {
  const headers = new Headers(reply.headers);
  let body: string | null = null;
  if (reply.json !== undefined) {
    headers.set('content-type', 'application/json; charset=utf-8');
    body = JSON.stringify(reply.json);
  } else if (reply.html !== undefined) {
    headers.set('content-type', 'text/html; charset=utf-8');
    body = reply.html;
  } else if (reply.text !== undefined) {
    headers.set('content-type', 'text/plain; charset=utf-8');
    body = reply.text;
  }
  return new Response(body, { status: reply.status ?? 200, headers });
};

// Create it inside a test (or a helper a test calls): it checks itself when the test ends.
export const createFakeServer = (): FakeServer => {
  const routes: Array<{ method: string; path: string | RegExp; handler: FakeHandler }> = [];
  const server: FakeServer = {
    calls: [],
    unexpected: [],
    offline: false,
    on(method, path, handler) {
      routes.unshift({
        method,
        path,
        handler: typeof handler === 'function' ? handler : () => handler,
      });
    },
    fetch: async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const rawBody = init?.body;
      const call: FakeCall = {
        method: init?.method ?? 'GET',
        url,
        target: `${url.pathname}${url.search}`,
        headers: new Headers(init?.headers),
        body:
          typeof rawBody === 'string'
            ? (JSON.parse(rawBody) as unknown)
            : rawBody instanceof Blob
              ? rawBody
              : undefined,
        ...(init?.signal ? { signal: init.signal } : {}),
      };
      server.calls.push(call);
      if (init?.signal?.aborted) throw new DOMException('aborted', 'AbortError');
      if (server.offline) throw new TypeError('fetch failed');
      const route = routes.find(
        (candidate) =>
          candidate.method === call.method &&
          (typeof candidate.path === 'string'
            ? candidate.path === url.pathname
            : candidate.path.test(url.pathname)),
      );
      if (!route) {
        server.unexpected.push(`${call.method} ${url.pathname}`);
        throw new Error(`the fake server has no route for ${call.method} ${url.pathname}`);
      }
      const reply = await route.handler(call);
      if (reply === 'network-error') throw new TypeError('fetch failed');
      return toResponse(reply);
    },
  };
  onTestFinished(() => {
    if (server.unexpected.length > 0) {
      throw new Error(`the fake server had no route for: ${server.unexpected.join(', ')}`);
    }
  });
  return server;
};

const base64Url = (value: string): string => Buffer.from(value).toString('base64url');

// An unsigned-looking session JWT with the given claims (the client never checks signatures).
export const makeJwt = (claims: Record<string, unknown>): string =>
  `${base64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64Url(JSON.stringify(claims))}.c2lnbmF0dXJl`;

// Claims as the server issues them, for a user authenticated at `authTimeMs`.
export const sessionJwt = (
  nowMs: number,
  overrides: Record<string, unknown> = {},
  lifetimeSeconds = 36 * 60 * 60,
): string => {
  const iat = Math.floor(nowMs / 1000);
  return makeJwt({
    id: 7,
    jwt_secret: 'secret',
    authTime: nowMs,
    permissions: [],
    iat,
    exp: iat + lifetimeSeconds,
    ...overrides,
  });
};
