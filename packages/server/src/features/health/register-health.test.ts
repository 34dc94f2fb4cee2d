import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { anonymous } from '../../infra/auth/actor.js';
import { createApp } from '../../infra/http/create-app.js';
import { registerHealth } from './register-health.js';

let app: FastifyInstance;

beforeAll(async () => {
  app = createApp({ resolveActor: async () => anonymous, logLevel: 'silent' });
  registerHealth(app);
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
});
