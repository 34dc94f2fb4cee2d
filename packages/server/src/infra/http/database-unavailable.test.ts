import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous } from '../auth/actor.js';
import { DatabaseUnavailableError } from '../db/connection-errors.js';
import { createApp } from './create-app.js';

// The error mapping of createApp for a database that cannot be reached: 503 with Retry-After,
// not the 500 of a bug.
let app: FastifyInstance;

beforeAll(async () => {
  app = createApp({ resolveActor: async () => anonymous, logLevel: 'silent' });
  app.get('/wrapped', { config: { access: 'public' } }, async () => {
    throw new DatabaseUnavailableError(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
  });
  app.get('/raw', { config: { access: 'public' } }, async () => {
    throw Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
  });
  app.get('/bug', { config: { access: 'public' } }, async () => {
    throw new Error('a bug');
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

describe('a database that cannot be reached', () => {
  it('answers 503 with Retry-After, wrapped or not', async () => {
    for (const url of ['/wrapped', '/raw']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.body).toBe('The database is unavailable; try again shortly');
    }
  });

  it('leaves other failures a 500', async () => {
    expect((await app.inject({ url: '/bug' })).statusCode).toBe(500);
  });
});
