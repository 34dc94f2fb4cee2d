import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { anonymous } from '../../infra/auth/actor.js';
import { DatabaseUnavailableError } from '../../infra/db/connection-errors.js';
import { createApp } from '../../infra/http/create-app.js';
import { readyTimeoutMs, registerHealth } from './register-health.js';

let app: FastifyInstance;
// What the fake database's ping does next; the test sets it per case.
let pingOutcome: 'answers' | 'unreachable' = 'answers';
const pings: number[] = [];

beforeAll(async () => {
  app = createApp({ resolveActor: async () => anonymous, logLevel: 'silent' });
  registerHealth(app, {
    db: {
      async ping(timeoutMs) {
        pings.push(timeoutMs);
        if (pingOutcome === 'unreachable') {
          throw new DatabaseUnavailableError(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
        }
      },
    },
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

describe('health routes', () => {
  it('answers /ping with OK', async () => {
    const response = await app.inject({ url: '/ping' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toBe('OK');
  });

  it('answers /connectivity-check with 204', async () => {
    const response = await app.inject({ url: '/connectivity-check' });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
  });

  it('answers /ready with 200 while the database answers', async () => {
    pingOutcome = 'answers';
    const response = await app.inject({ url: '/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('OK');
    expect(pings.at(-1)).toBe(readyTimeoutMs);
  });

  it('answers /ready with 503 and Retry-After while it does not, and /ping stays 200', async () => {
    pingOutcome = 'unreachable';
    const ready = await app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.body).toBe('Not ready: the database does not answer');
    expect((await app.inject({ url: '/ping' })).statusCode).toBe(200);
  });
});
