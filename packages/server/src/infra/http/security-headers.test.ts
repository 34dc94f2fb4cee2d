import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { anonymous } from '../auth/actor.js';
import { createApp } from './create-app.js';

const build = () => {
  const app = createApp({ logLevel: 'silent', resolveActor: async () => anonymous });
  app.get('/v7/application', { config: { access: 'public' } }, async () => ({ d: [] }));
  app.get('/v7/secret', { config: { access: 'user' } }, async () => ({ d: [] }));
  app.get('/boom', { config: { access: 'public' } }, async () => {
    throw new ApiError('bad_request', 'nope');
  });
  app.get('/device/v3/:uuid/state', { config: { access: 'public', deviceProtocol: true } }, () => ({
    target: {},
  }));
  app.get('/device/v2/:uuid/state', { config: { access: 'user', deviceProtocol: true } }, () => ({
    target: {},
  }));
  // Only devices may call it: a device-protocol route without saying so.
  app.patch('/device/v3/state', { config: { access: 'device' } }, () => ({}));
  return app;
};

// What helmet sets for browsers besides nosniff: every console and API answer carries them all.
const browserOnlyHeaders = [
  'content-security-policy',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

const directives = (header: string | number | string[] | undefined): Map<string, string> =>
  new Map(
    String(header ?? '')
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
  );

describe('security headers on API answers', () => {
  it.each([
    ['a JSON answer', '/v7/application', 200],
    ['a refused one', '/v7/secret', 401],
    ['an error', '/boom', 400],
    ['an unknown path', '/nowhere', 404],
  ])(
    '%s gets nosniff, no framing, no referrer and a CSP that loads nothing',
    async (_, url, status) => {
      const response = await build().inject({ url });
      expect(response.statusCode).toBe(status);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      const csp = directives(response.headers['content-security-policy']);
      expect(csp.get('default-src')).toBe("'none'");
      expect(csp.get('frame-ancestors')).toBe("'none'");
      // Plain http deployments must keep working: no forced upgrade, no HSTS from this process.
      expect(csp.has('upgrade-insecure-requests')).toBe(false);
      expect(response.headers['strict-transport-security']).toBeUndefined();
      for (const name of browserOnlyHeaders) expect(response.headers[name], name).toBeDefined();
    },
  );
});

describe('security headers on device-protocol answers', () => {
  const answers: [string, string, number, 'GET' | 'PATCH'][] = [
    ['a target state', '/device/v3/abc/state', 200, 'GET'],
    ['a refused one', '/device/v2/abc/state', 401, 'GET'],
    ['a state report refused', '/device/v3/state', 401, 'PATCH'],
  ];
  it.each(answers)(
    '%s gets nosniff and none of the browser-only headers',
    async (_, url, status, method) => {
      const response = await build().inject({ url, method });
      expect(response.statusCode).toBe(status);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      for (const name of browserOnlyHeaders) expect(response.headers[name], name).toBeUndefined();
    },
  );
});
