import { describe, expect, it } from 'vitest';
import { anonymous } from '../auth/actor.js';
import type { CorsOrigins } from '../config/cors-origins.js';
import { createApp } from './create-app.js';

const build = (corsOrigins?: CorsOrigins) => {
  const app = createApp({ logLevel: 'silent', resolveActor: async () => anonymous, corsOrigins });
  app.patch('/v7/device(1)', { config: { access: 'public' } }, async () => 'OK');
  app.get('/v7/device', { config: { access: 'public' } }, async () => ({ d: [] }));
  return app;
};

const preflight = (app: ReturnType<typeof build>, origin: string) =>
  app.inject({
    method: 'OPTIONS',
    url: '/v7/device(1)',
    headers: {
      origin,
      'access-control-request-method': 'PATCH',
      'access-control-request-headers': 'authorization,content-type,x-balena-client',
    },
  });

const listed = (value: string | number | string[] | undefined): string[] =>
  String(value ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase());

describe('CORS', () => {
  it('lets any origin call without credentials by default', async () => {
    const app = build();
    const response = await preflight(app, 'https://anywhere.example');
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    expect(listed(response.headers['access-control-allow-methods'])).toEqual(
      expect.arrayContaining(['get', 'head', 'post', 'patch', 'put', 'delete', 'options']),
    );
    expect(listed(response.headers['access-control-allow-headers'])).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'x-balena-client', 'if-none-match']),
    );
    const get = await app.inject({ url: '/v7/device', headers: { origin: 'https://x.example' } });
    expect(get.headers['access-control-allow-origin']).toBe('*');
    expect(get.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('echoes only configured origins, and lets those send credentials', async () => {
    const app = build({ kind: 'list', origins: ['https://console.example.com'] });
    const allowed = await preflight(app, 'https://console.example.com');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://console.example.com');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    expect(listed(allowed.headers.vary)).toContain('origin');
    const other = await preflight(app, 'https://evil.example');
    // Without Access-Control-Allow-Origin the browser refuses, whatever else is said.
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS on device-protocol answers', () => {
  const withTargetState = (corsOrigins?: CorsOrigins) => {
    const app = build(corsOrigins);
    app.get(
      '/device/v3/:uuid/state',
      { config: { access: 'public', deviceProtocol: true } },
      async () => ({}),
    );
    return app;
  };
  const list: CorsOrigins = { kind: 'list', origins: ['https://console.example.com'] };

  it.each([
    ['any origin', undefined],
    ['a configured list', list],
  ])('answers a device (no Origin) without CORS headers, with %s', async (_, origins) => {
    const response = await withTargetState(origins).inject({ url: '/device/v3/abc/state' });
    expect(response.statusCode).toBe(200);
    const names = Object.keys(response.headers).filter((name) =>
      name.startsWith('access-control-'),
    );
    expect(names).toEqual([]);
    // The answer depends on Origin: a cache must not give a browser the device's copy.
    expect(listed(response.headers.vary)).toContain('origin');
  });

  it('gives a browser (Origin) its CORS headers and preflight, with any origin', async () => {
    const app = withTargetState();
    const get = await app.inject({
      url: '/device/v3/abc/state',
      headers: { origin: 'https://sdk.example' },
    });
    expect(get.headers['access-control-allow-origin']).toBe('*');
    expect(listed(get.headers['access-control-expose-headers'])).toContain('etag');
    expect(get.headers['access-control-allow-credentials']).toBeUndefined();
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/device/v3/abc/state',
      headers: {
        origin: 'https://sdk.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization,if-none-match,x-balena-client',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(listed(preflight.headers['access-control-allow-headers'])).toEqual(
      expect.arrayContaining(['authorization', 'if-none-match', 'x-balena-client']),
    );
  });

  it('echoes only configured origins, with credentials, on a device-protocol route', async () => {
    const app = withTargetState(list);
    const allowed = await app.inject({
      url: '/device/v3/abc/state',
      headers: { origin: 'https://console.example.com' },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://console.example.com');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    const other = await app.inject({
      url: '/device/v3/abc/state',
      headers: { origin: 'https://evil.example' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});
