import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createUser } from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { registerConfigRoutes } from './register-config-routes.js';

let db: Database;
let app: FastifyInstance;
let token: string;

beforeAll(async () => {
  db = await createTestDatabase();
  const ctx = createTestContext(db, { config: { deviceUrlsBase: 'devices.example.test' } });
  app = await createTestApp(ctx, registerConfigRoutes);
  const user = await createUser(db, 'reader');
  token = await issueSessionToken(ctx, db, user.userId);
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('GET /config', () => {
  it('answers the device URL base without a token', async () => {
    const response = await app.inject({ url: '/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ deviceUrlsBase: 'devices.example.test' });
  });
});

describe('GET /config/vars', () => {
  it('answers the naming rules without a token', async () => {
    const response = await app.inject({ url: '/config/vars' });
    expect(response.statusCode).toBe(200);
    const body = response.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      reservedNames: ['RESIN', 'BALENA', 'USER'],
      reservedNamespaces: ['RESIN_', 'BALENA_'],
      invalidRegex: '/^\\d|\\W/',
    });
    expect(body.whiteListedNames).toContain('BALENA_SUPERVISOR_POLL_INTERVAL');
    expect(body.whiteListedNamespaces).toContain('BALENA_HOST_CONFIG_');
    expect(body.blackListedNames).toContain('BALENA_DEVICE_UUID');
    const schema = body.configVarSchema as { properties: Record<string, unknown> };
    expect(schema.properties).toHaveProperty('BALENA_SUPERVISOR_POLL_INTERVAL');
    expect(schema.properties).toHaveProperty('BALENA_SUPERVISOR_PERSISTENT_LOGGING');
    expect(schema.properties).not.toHaveProperty('BALENA_HOST_CONFIG_gpu_mem');
  });

  it('needs a user for a device type, and resolves aliases', async () => {
    expect((await app.inject({ url: '/config/vars?deviceType=raspberrypi4-64' })).statusCode).toBe(
      401,
    );
    const headers = { authorization: `Bearer ${token}` };
    const pi = await app.inject({ url: '/config/vars?deviceType=raspberrypi2', headers });
    expect(pi.statusCode).toBe(200);
    expect(
      pi.json<{ configVarSchema: { properties: object } }>().configVarSchema.properties,
    ).toHaveProperty('BALENA_HOST_CONFIG_gpu_mem');
    const nuc = await app.inject({ url: '/config/vars?deviceType=intel-nuc', headers });
    expect(
      nuc.json<{ configVarSchema: { properties: object } }>().configVarSchema.properties,
    ).not.toHaveProperty('BALENA_HOST_CONFIG_gpu_mem');
  });
});
