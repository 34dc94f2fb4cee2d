import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { anonymous, type Actor } from '../auth/actor.js';
import { createApp } from './create-app.js';

const user: Actor = {
  kind: 'user',
  userId: 1,
  actorId: 2,
  platformPermissions: [],
  via: 'session',
  twoFactorPending: false,
  emailVerificationPending: false,
};

const build = () => {
  const app = createApp({
    logLevel: 'silent',
    bodyLimitBytes: 1024,
    resolveActor: async (token) => (token === 'good' ? user : anonymous),
  });
  app.get('/open', { config: { access: 'public' } }, async () => 'open');
  app.get('/mine', { config: { access: 'user' } }, async (request) => request.actor.kind);
  app.post('/echo', { config: { access: 'public' } }, async (request) => ({
    body: request.body ?? null,
  }));
  app.get('/limited', { config: { access: 'public' } }, async () => {
    throw new ApiError('rate_limited', 'Too Many Requests', { retryAfterSeconds: 7 });
  });
  app.get('/broken', { config: { access: 'public' } }, async () => {
    throw new Error('secret internals');
  });
  return app;
};

describe('createApp', () => {
  it('refuses to register a route that does not declare who may call it', async () => {
    const app = createApp({ logLevel: 'silent', resolveActor: async () => anonymous });
    expect(() => app.get('/undeclared', async () => 'x')).toThrow(/does not declare its access/);
  });

  it('enforces the declared access with 401', async () => {
    const app = build();
    expect((await app.inject({ url: '/mine' })).statusCode).toBe(401);
    const allowed = await app.inject({ url: '/mine', headers: { authorization: 'Bearer good' } });
    expect(allowed.body).toBe('user');
    expect((await app.inject({ url: '/open' })).body).toBe('open');
  });

  it('maps errors once: text bodies, Retry-After, no internals on 500', async () => {
    const app = build();
    const limited = await app.inject({ url: '/limited' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('7');
    expect(limited.body).toBe('Too Many Requests');
    const broken = await app.inject({ url: '/broken' });
    expect(broken.statusCode).toBe(500);
    expect(broken.body).not.toContain('secret');
    const missing = await app.inject({ url: '/nowhere' });
    expect(missing.statusCode).toBe(404);
  });

  it('treats an empty JSON body as no body and malformed or oversized ones as 4xx', async () => {
    const app = build();
    const empty = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.json()).toEqual({ body: null });
    const malformed = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toMatch(/not valid JSON/);
    const large = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ a: 'x'.repeat(2000) }),
    });
    expect(large.statusCode).toBe(400);
    expect(large.body).toBe('Request body larger than 1024 bytes');
  });

  it('allows the balena client header in CORS preflights', async () => {
    const app = build();
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/open',
      headers: {
        origin: 'http://elsewhere.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-balena-client,authorization',
      },
    });
    expect(preflight.statusCode).toBeLessThan(300);
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/X-Balena-Client/i);
  });

  it('rejects overlong URLs with a clear 400', async () => {
    const app = build();
    const response = await app.inject({ url: `/open?x=${'a'.repeat(17_000)}` });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/URL longer than/);
  });
});
