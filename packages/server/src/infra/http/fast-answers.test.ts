import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { anonymous, type Actor } from '../auth/actor.js';
import type { CorsOrigins } from '../config/cors-origins.js';
import { createApp } from './create-app.js';
import { addFastRoute, observeFastAnswers } from './fast-answers.js';

const device: Actor = { kind: 'device', deviceId: 7, actorId: 8, applicationId: 9 };
const user: Actor = {
  kind: 'user',
  userId: 1,
  actorId: 2,
  platformPermissions: [],
  via: 'api-key',
  twoFactorPending: false,
  emailVerificationPending: false,
};
const actors: Record<string, Actor> = { 'device-key': device, 'user-key': user };

// A framework route answering 200 and a fast route answering 304 for the same URL, on a real
// listening server (app.inject never reaches the HTTP server).
const started: FastifyInstance[] = [];
const start = async (
  options: { logLevel?: string; failing?: boolean; corsOrigins?: CorsOrigins } = {},
) => {
  const lines: string[] = [];
  const app = createApp({
    logLevel: options.logLevel ?? 'info',
    logStream: { write: (line) => lines.push(line) },
    resolveActor: async (token) => actors[token ?? ''] ?? anonymous,
    cachedActor: (token) => actors[token],
    corsOrigins: options.corsOrigins,
  });
  app.get(
    '/thing/:id',
    { config: { access: 'device', deviceProtocol: true } },
    async () => 'framework',
  );
  addFastRoute(app, {
    url: '/thing/:id',
    access: 'device',
    answer(path) {
      if (options.failing) throw new Error('broken fast route');
      return path === '/thing/1' ? { status: 304, headers: { etag: '"one"' } } : undefined;
    },
  });
  const observed: number[] = [];
  observeFastAnswers(app, (_route, _method, status) => observed.push(status));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  started.push(app);
  const get = async (path: string, key: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}${path}`, {
      headers: { authorization: `Bearer ${key}`, ...headers },
    });
    return { status: response.status, headers: response.headers, body: await response.text() };
  };
  return { get, observed, lines };
};

afterEach(async () => {
  await Promise.all(started.splice(0).map((app) => app.close()));
});

describe('fast answers', () => {
  it.each([
    ['any origin', undefined],
    ['a configured list', { kind: 'list', origins: ['https://a.example'] } as const],
  ])(
    "answers from memory with a device-protocol answer's headers (CORS: %s), counted by its observers",
    async (_, corsOrigins) => {
      const server = await start({ corsOrigins });
      const answer = await server.get('/thing/1', 'device-key');
      expect(answer.status).toBe(304);
      // The route's own, then the transport's: nosniff, and Vary as the framework's answer says.
      expect(answer.headers.get('etag')).toBe('"one"');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('vary')).toBe('Origin');
      expect(answer.headers.get('x-frame-options')).toBeNull();
      expect(answer.headers.get('content-security-policy')).toBeNull();
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      expect(server.observed).toEqual([304]);
      // The framework's answer of the route carries the same transport headers.
      const framework = await server.get('/thing/2', 'device-key');
      expect(framework.status).toBe(200);
      for (const name of ['x-content-type-options', 'vary', 'x-frame-options']) {
        expect(framework.headers.get(name), name).toBe(answer.headers.get(name));
      }
    },
  );

  it('leaves everything else to the framework', async () => {
    const server = await start();
    const framework = { status: 200, body: 'framework' };
    // Nothing to answer from memory, a query string, a browser's Origin.
    expect(await server.get('/thing/2', 'device-key')).toMatchObject(framework);
    expect(await server.get('/thing/1?x=1', 'device-key')).toMatchObject(framework);
    expect(
      await server.get('/thing/1', 'device-key', { origin: 'https://a.example' }),
    ).toMatchObject(framework);
    // A token not in the cache, and a caller the route's access rule refuses: the framework's 401.
    expect((await server.get('/thing/1', 'other-key')).status).toBe(401);
    expect((await server.get('/thing/1', 'user-key')).status).toBe(401);
    expect(server.observed).toEqual([]);
  });

  it('stays out of the way while request lines are logged, and when a route fails', async () => {
    const debug = await start({ logLevel: 'debug' });
    expect(await debug.get('/thing/1', 'device-key')).toMatchObject({ status: 200 });
    expect(debug.lines.some((line) => line.includes('"url":"/thing/1"'))).toBe(true);

    const failing = await start({ failing: true });
    expect(await failing.get('/thing/1', 'device-key')).toMatchObject({ status: 200 });
    expect(failing.lines.some((line) => line.includes('broken fast route'))).toBe(true);
  });
});
