import { describe, expect, it } from 'vitest';
import { FlotillaApiError, FlotillaNetworkError } from './errors.js';
import { type HttpDeps, sendHttp } from './http-exchange.js';
import { createFakeClock } from './test-support/fake-clock.js';
import { createFakeServer, testApiUrl } from './test-support/fake-server.js';

const setup = (token: string | null = 'the-token') => {
  const server = createFakeServer();
  const clock = createFakeClock();
  const deps: HttpDeps = {
    apiUrl: testApiUrl,
    fetch: server.fetch,
    clientHeader: 'flotilla-console/test',
    clock,
    getToken: () => token,
  };
  return { server, clock, deps };
};

describe('sendHttp', () => {
  it('sends the bearer token, the client header and JSON bodies', async () => {
    const { server, deps } = setup();
    server.on('POST', '/thing', { status: 201, json: { id: 1 } });
    const result = await sendHttp<{ id: number }>(deps, {
      method: 'POST',
      path: '/thing',
      body: { name: 'x' },
    });
    expect(result).toEqual({ id: 1 });
    const [call] = server.calls;
    expect(call?.method).toBe('POST');
    expect(call?.headers.get('authorization')).toBe('Bearer the-token');
    expect(call?.headers.get('x-balena-client')).toBe('flotilla-console/test');
    expect(call?.headers.get('content-type')).toBe('application/json');
    expect(call?.body).toEqual({ name: 'x' });
  });

  it('sends an upload as is, with its content type', async () => {
    const { server, deps } = setup();
    server.on('POST', '/upload', { status: 201, json: { ok: true } });
    const data = new Blob([new Uint8Array([31, 139, 8])]);
    await sendHttp(deps, {
      method: 'POST',
      path: '/upload',
      upload: { data, contentType: 'application/gzip' },
    });
    const [call] = server.calls;
    expect(call?.headers.get('content-type')).toBe('application/gzip');
    expect(call?.body).toBe(data);
  });

  it('leaves the token out when auth is false or there is none', async () => {
    const { server, deps } = setup();
    server.on('GET', '/config', { json: {} });
    await sendHttp(deps, { path: '/config', auth: false });
    expect(server.calls[0]?.headers.get('authorization')).toBeNull();

    const anonymous = setup(null);
    anonymous.server.on('GET', '/config', { json: {} });
    await sendHttp(anonymous.deps, { path: '/config' });
    expect(anonymous.server.calls[0]?.headers.get('authorization')).toBeNull();
    // No body, no content type.
    expect(anonymous.server.calls[0]?.headers.get('content-type')).toBeNull();
  });

  it('appends query values, skipping undefined ones, after an existing query', async () => {
    const { server, deps } = setup();
    server.on('GET', '/v7/device', { json: { d: [] } });
    await sendHttp(deps, {
      path: '/v7/device?$top=1',
      query: { a: 'x y', b: 2, c: true, d: undefined },
    });
    expect(server.calls[0]?.target).toBe('/v7/device?$top=1&a=x%20y&b=2&c=true');
  });

  it('parses JSON by content type and returns anything else as text', async () => {
    const { server, deps } = setup();
    server.on('GET', '/json', { json: [1, 2] });
    server.on('GET', '/text', { text: 'eyJ.token' });
    server.on('PATCH', '/empty', { status: 200 });
    expect(await sendHttp(deps, { path: '/json' })).toEqual([1, 2]);
    expect(await sendHttp(deps, { path: '/text' })).toBe('eyJ.token');
    expect(await sendHttp(deps, { method: 'PATCH', path: '/empty', body: {} })).toBe('');
  });

  it('throws FlotillaApiError for statuses from 400 with the text and Retry-After', async () => {
    const { server, deps } = setup();
    server.on('POST', '/login_', {
      status: 429,
      text: 'Too Many Requests. Try again later',
      headers: { 'Retry-After': '42' },
    });
    const error = await sendHttp(deps, { method: 'POST', path: '/login_', auth: false }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FlotillaApiError);
    const apiError = error as FlotillaApiError;
    expect(apiError.status).toBe(429);
    expect(apiError.code).toBe('rate_limited');
    expect(apiError.message).toBe('Too Many Requests. Try again later');
    expect(apiError.body).toBe('Too Many Requests. Try again later');
    expect(apiError.retryAfterSeconds).toBe(42);
    expect(apiError.sentToken).toBe(false);
    expect(apiError.path).toBe('/login_');
    expect(apiError.method).toBe('POST');
  });

  it('reads the message of JSON and HTML error bodies', async () => {
    const { server, deps } = setup();
    server.on('GET', '/json-error', { status: 400, json: { error: { text: 'Bad thing' } } });
    server.on('GET', '/html-error', {
      status: 502,
      html: '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>',
    });
    server.on('GET', '/empty-error', { status: 500 });
    const messageOf = (path: string) =>
      sendHttp(deps, { path }).catch((error: unknown) => (error as Error).message);
    expect(await messageOf('/json-error')).toBe('Bad thing');
    expect(await messageOf('/html-error')).toBe('502 Bad Gateway');
    expect(await messageOf('/empty-error')).toBe('500');
  });

  it('accepts Retry-After as an HTTP date', async () => {
    const { server, deps, clock } = setup();
    server.on('GET', '/slow-down', {
      status: 429,
      headers: { 'Retry-After': new Date(clock.now() + 30_000).toUTCString() },
    });
    const error = (await sendHttp(deps, { path: '/slow-down' }).catch(
      (caught: unknown) => caught,
    )) as FlotillaApiError;
    expect(error.retryAfterSeconds).toBe(30);
    // The console tells when the action is available again.
    expect(error.availableAt).toBe(clock.now() + 30_000);
  });

  it('turns an unreachable server into FlotillaNetworkError', async () => {
    const { server, deps } = setup();
    server.offline = true;
    const error = await sendHttp(deps, { path: '/ping' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FlotillaNetworkError);
    expect((error as FlotillaNetworkError).kind).toBe('network');
  });

  it('gives up after the timeout (59 s by default)', async () => {
    const { server, deps, clock } = setup();
    server.on(
      'GET',
      '/hang',
      (call) =>
        new Promise((_resolve, reject) => {
          call.signal?.addEventListener('abort', () => reject(new DOMException('x', 'AbortError')));
        }),
    );
    const pending = sendHttp(deps, { path: '/hang' }).catch((caught: unknown) => caught);
    await clock.advance(58_999);
    expect(clock.pendingTimers()).toBe(1);
    await clock.advance(1);
    const error = await pending;
    expect(error).toBeInstanceOf(FlotillaNetworkError);
    expect((error as FlotillaNetworkError).kind).toBe('timeout');
  });

  it("rejects with the caller's abort reason, not as a network failure", async () => {
    const { server, deps } = setup();
    server.on('GET', '/data', { json: {} });
    const controller = new AbortController();
    controller.abort(new Error('left the page'));
    const error = await sendHttp(deps, { path: '/data', signal: controller.signal }).catch(
      (caught: unknown) => caught,
    );
    expect((error as Error).message).toBe('left the page');
    expect(server.calls).toHaveLength(0);
  });
});
