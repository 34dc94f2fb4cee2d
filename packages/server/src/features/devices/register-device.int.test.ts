import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fx from '../../test-support/fixtures.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { createApiKey } from '../api-keys/store-api-key.js';

describe('POST /device/register', () => {
  let server: TestServer;
  let fleet: fx.FleetFixture;
  let otherFleet: fx.FleetFixture;
  let provisioningKey: string;

  beforeAll(async () => {
    server = await startTestServer();
    const organization = await fx.createOrganization(server.db, 'Registrars');
    fleet = await fx.createFleet(server.db, organization, 'Sensors', {
      deviceType: 'raspberrypi4-64',
    });
    otherFleet = await fx.createFleet(server.db, organization, 'Others');
    provisioningKey = await createApiKey(server.db, fleet.actorId, { name: 'provisioning' });
  });
  afterAll(() => server.close());

  const register = (body: Record<string, unknown>, key = provisioningKey) =>
    server.app.inject({
      method: 'POST',
      url: '/device/register',
      headers: { authorization: `Bearer ${key}` },
      payload: body,
    });
  const uuid = (): string => randomBytes(16).toString('hex');

  it('registers into the key’s fleet and returns a working device key', async () => {
    const deviceUuid = uuid();
    const response = await register({
      application: fleet.id,
      uuid: deviceUuid,
      device_type: 'raspberrypi5',
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json<{ id: number; uuid: string; api_key: string }>();
    expect(body.uuid).toBe(deviceUuid);
    const whoami = await server.app.inject({
      method: 'GET',
      url: '/actor/v1/whoami',
      headers: { authorization: `Bearer ${body.api_key}` },
    });
    expect(whoami.json()).toMatchObject({
      actorType: 'device',
      actorTypeId: body.id,
      uuid: deviceUuid,
    });
    const stored = await server.db.query<{ application: number }>(
      'SELECT "belongs_to__application" AS application FROM "device" WHERE "uuid" = $1',
      [deviceUuid],
    );
    expect(stored.rows).toEqual([{ application: fleet.id }]);
  });

  it('keeps a key the device supplies', async () => {
    const apiKey = `given${randomBytes(12).toString('hex')}`;
    const response = await register({
      application: fleet.id,
      uuid: uuid(),
      device_type: 'raspberrypi4-64',
      api_key: apiKey,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<{ api_key: string }>().api_key).toBe(apiKey);
  });

  it('answers 409 "unique" for a known uuid and writes nothing', async () => {
    const deviceUuid = uuid();
    expect(
      (await register({ application: fleet.id, uuid: deviceUuid, device_type: 'raspberrypi4-64' }))
        .statusCode,
    ).toBe(201);
    const again = await register({
      application: fleet.id,
      uuid: deviceUuid,
      device_type: 'raspberrypi4-64',
    });
    expect(again.statusCode).toBe(409);
    expect(again.body).toMatch(/unique/i);
  });

  it('refuses other fleets, unknown or incompatible device types and malformed input', async () => {
    expect(
      (await register({ application: otherFleet.id, uuid: uuid(), device_type: 'raspberrypi4-64' }))
        .statusCode,
    ).toBe(401);
    expect(
      (
        await register(
          { application: fleet.id, uuid: uuid(), device_type: 'raspberrypi4-64' },
          'nonsense-key-000000',
        )
      ).statusCode,
    ).toBe(401);
    const unknown = await register({ application: fleet.id, uuid: uuid(), device_type: 'toaster' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('Invalid device type: toaster');
    const incompatible = await register({
      application: fleet.id,
      uuid: uuid(),
      device_type: 'generic-amd64',
    });
    expect(incompatible.statusCode).toBe(400);
    expect(incompatible.body).toMatch(/cannot run/);
    const malformed = await register({
      application: fleet.id,
      uuid: 'XYZ',
      device_type: 'raspberrypi4-64',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toMatch(/uuid/);
  });
});
