import { describe, expect, it } from 'vitest';
import { FlotillaApiError, FlotillaNetworkError } from './errors.js';
import { createTestClient } from './test-support/test-client.js';

describe('request', () => {
  it('raises statuses from 400 at once', async () => {
    const { client, server } = createTestClient('key');
    server.on('GET', '/thing', { status: 404, text: 'Not found' });
    const error = await client.request({ path: '/thing' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FlotillaApiError);
    expect(server.calls).toHaveLength(1);
  });

  it('holds a GET that failed for lack of network and resends it once the ping answers', async () => {
    const { client, server, clock } = createTestClient('key');
    server.on('GET', '/ping', { text: 'OK' });
    server.on('GET', '/data', { json: { value: 1 } });
    server.offline = true;
    let result: unknown;
    void client.request({ path: '/data' }).then((value) => {
      result = value;
    });
    // Pings at 0, 200 and 600 ms fail.
    await clock.advance(600);
    expect(client.connectivity.getState()).toEqual({ lost: true, failures: 3 });
    expect(result).toBeUndefined();

    server.offline = false;
    await clock.advance(600);
    expect(result).toEqual({ value: 1 });
    expect(client.connectivity.getState()).toEqual({ lost: false, failures: 0 });
    const targets = server.calls.map((call) => call.target);
    expect(targets.filter((target) => target === '/data')).toHaveLength(2);
    // The ping goes without the token.
    const ping = server.calls.find((call) => call.target === '/ping');
    expect(ping?.headers.get('authorization')).toBeNull();
  });

  it('raises a write that failed for lack of network', async () => {
    const { client, server, clock } = createTestClient('key');
    server.offline = true;
    const error = await client
      .request({ method: 'POST', path: '/data', body: {} })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FlotillaNetworkError);
    // The connection is checked all the same.
    await clock.advance(0);
    expect(client.connectivity.getState().failures).toBe(1);
  });

  it('shows the throttle notice on 429 and raises unless asked to retry', async () => {
    const { client, server, clock } = createTestClient('key');
    server.on('GET', '/busy', { status: 429, headers: { 'Retry-After': '2' } });
    const error = await client.request({ path: '/busy' }).catch((caught: unknown) => caught);
    expect((error as FlotillaApiError).status).toBe(429);
    expect(client.throttle.getNotice()).toEqual({ until: clock.now() + 5000 });
  });

  it('retries a rate-limited request after the notice ends', async () => {
    const { client, server, clock } = createTestClient('key');
    let attempts = 0;
    server.on('GET', '/busy', () => {
      attempts += 1;
      return attempts === 1
        ? { status: 429, headers: { 'Retry-After': '8' } }
        : { json: { ok: true } };
    });
    let result: unknown;
    void client.request({ path: '/busy', retryRateLimited: true }).then((value) => {
      result = value;
    });
    await clock.advance(7999);
    expect(attempts).toBe(1);
    await clock.advance(1);
    expect(attempts).toBe(2);
    expect(result).toEqual({ ok: true });
    expect(client.throttle.getNotice()).toBeNull();
  });

  it('gives up on 429 after three retries', async () => {
    const { client, server, clock } = createTestClient('key');
    server.on('GET', '/busy', { status: 429 });
    const pending = client
      .request({ path: '/busy', retryRateLimited: true })
      .catch((caught: unknown) => caught);
    await clock.advance(60_000);
    expect(((await pending) as FlotillaApiError).status).toBe(429);
    expect(server.calls).toHaveLength(4);
  });
});
