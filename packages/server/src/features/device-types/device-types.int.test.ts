import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import type { DeviceTypeManifest } from './device-type-manifest.js';
import { registerDeviceTypes } from './register-device-types.js';

let db: Database;
let app: FastifyInstance;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await createTestApp(createTestContext(db), registerDeviceTypes);
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('GET /device-types/v1', () => {
  it('lists manifests of the public catalogue', async () => {
    const response = await app.inject({ url: '/device-types/v1' });
    expect(response.statusCode).toBe(200);
    const manifests = response.json<DeviceTypeManifest[]>();
    const pi4 = manifests.find((manifest) => manifest.slug === 'raspberrypi4-64');
    expect(pi4).toMatchObject({
      name: 'Raspberry Pi 4 (using 64bit OS)',
      arch: 'aarch64',
      aliases: ['raspberrypi4-64'],
      state: 'RELEASED',
      private: false,
    });
    expect(pi4?.options.length).toBeGreaterThan(0);
    expect(pi4?.initialization).toHaveProperty('operations');
  });

  it('answers one manifest by slug or alias', async () => {
    const bySlug = await app.inject({ url: '/device-types/v1/raspberry-pi2' });
    expect(bySlug.statusCode).toBe(200);
    const byAlias = await app.inject({ url: '/device-types/v1/raspberrypi2' });
    expect(byAlias.statusCode).toBe(200);
    expect(byAlias.json()).toEqual(bySlug.json());
    expect(byAlias.json<DeviceTypeManifest>().aliases).toEqual(['raspberry-pi2', 'raspberrypi2']);
  });

  it('answers 404 "Invalid device type" for an unknown slug', async () => {
    const response = await app.inject({ url: '/device-types/v1/toaster' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toBe('Invalid device type: toaster');
    const size = await app.inject({ url: '/device-types/v1/toaster/images/6.0.0/download-size' });
    expect(size.statusCode).toBe(404);
  });

  it('answers a download size', async () => {
    const response = await app.inject({
      url: '/device-types/v1/raspberrypi4-64/images/6.0.0/download-size',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ size: 0 });
  });
});
