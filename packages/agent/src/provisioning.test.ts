import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from './api-client.js';
import { memoryIdentityStore, provision, ProvisioningError } from './provisioning.js';
import { FakeApi, json } from './test-support/fake-api.js';
import { ManualClock } from './test-support/manual-clock.js';

const details = {
  applicationId: 7,
  deviceType: 'raspberrypi4-64',
  provisioningKey: 'prov-key-123',
};

describe('provision', () => {
  let api: FakeApi;
  let client: ApiClient;

  beforeEach(async () => {
    api = await new FakeApi().listen();
    client = new ApiClient({ baseUrl: api.url });
  });
  afterEach(() => api.close());

  it('registers with the provisioning key, then keeps the device key and uuid', async () => {
    api.on((request, response) => {
      if (request.path !== '/device/register') return;
      const body = request.body as { uuid: string; api_key: string };
      return json(response, 201, { id: 42, uuid: body.uuid, api_key: body.api_key });
    });
    const store = memoryIdentityStore();
    const identity = await provision(client, store, { ...details, supervisorVersion: '17.1.0' });

    expect(identity.uuid).toMatch(/^[0-9a-f]{32}$/);
    expect(identity).toMatchObject({ deviceId: 42, registered: true });
    const [register] = api.requests;
    expect(register?.headers.authorization).toBe('Bearer prov-key-123');
    expect(register?.body).toMatchObject({
      application: 7,
      uuid: identity.uuid,
      device_type: 'raspberrypi4-64',
      api_key: identity.deviceApiKey,
      supervisor_version: '17.1.0',
    });
    expect(await store.load()).toEqual(identity);

    // A registered device never registers again.
    await provision(client, store, details);
    expect(api.requests).toHaveLength(1);
  });

  it('keeps a configured uuid and takes the key the server returns', async () => {
    api.on((request, response) =>
      request.path === '/device/register'
        ? json(response, 201, { id: 1, uuid: 'x', api_key: 'server-key-abcdefgh' })
        : undefined,
    );
    const uuid = 'a'.repeat(32);
    const identity = await provision(client, memoryIdentityStore({ uuid }), details);
    expect(identity).toMatchObject({ uuid, deviceApiKey: 'server-key-abcdefgh' });
  });

  it('recovers a registration whose 201 was lost: 409, then the key proves ownership', async () => {
    api.on((request, response) => {
      if (request.path === '/device/register') return json(response, 409, '"uuid" must be unique.');
      if (
        request.path.startsWith('/v7/device?') &&
        request.headers.authorization === 'Bearer my-device-key-123456'
      ) {
        return json(response, 200, { d: [{ id: 9 }] });
      }
    });
    const store = memoryIdentityStore({
      uuid: 'b'.repeat(32),
      deviceApiKey: 'my-device-key-123456',
    });
    const identity = await provision(client, store, details);
    expect(identity).toMatchObject({ deviceId: 9, registered: true });
    expect(decodeURIComponent(api.requests[1]?.path ?? '')).toContain(
      `uuid eq '${'b'.repeat(32)}'`,
    );
  });

  it('refuses clearly when the uuid belongs to someone else', async () => {
    api.on((request, response) => {
      if (request.path === '/device/register') return json(response, 409, 'conflict');
      return json(response, 200, { d: [] });
    });
    await expect(provision(client, memoryIdentityStore(), details)).rejects.toThrow(
      /already registered/,
    );
  });

  it('turns a refused provisioning key into a ProvisioningError', async () => {
    api.on((_request, response) => json(response, 401, 'Unauthorized'));
    const failure = provision(client, memoryIdentityStore(), details);
    await expect(failure).rejects.toBeInstanceOf(ProvisioningError);
    await expect(failure).rejects.toThrow(/provisioning key/);
  });

  it('retries transient failures, honouring Retry-After', async () => {
    let calls = 0;
    api.on((request, response) => {
      if (request.path !== '/device/register') return;
      calls++;
      if (calls === 1) return json(response, 503, 'busy', { 'retry-after': '0.2' });
      return json(response, 201, { id: 3, uuid: 'u', api_key: 'k'.repeat(20) });
    });
    const clock = new ManualClock();
    const delays: number[] = [];
    const provisioning = provision(
      new ApiClient({ baseUrl: api.url, clock }),
      memoryIdentityStore(),
      details,
      { policy: { baseMs: 10, maxMs: 20 }, onRetry: (_error, delayMs) => delays.push(delayMs) },
    );
    await api.waitFor(() => clock.pending === 1, 'the retry to be scheduled');
    // Retry-After's 200 ms beat the backoff's 10-20 ms.
    expect(delays).toEqual([200]);
    clock.advance(199);
    expect(clock.pending).toBe(1);
    clock.advance(1);
    expect(clock.pending).toBe(0);
    const identity = await provisioning;
    expect(identity.deviceId).toBe(3);
    expect(calls).toBe(2);
  });
});
