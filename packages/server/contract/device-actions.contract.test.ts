import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectFakeDevice,
  type FakeAnswer,
  type FakeDevice,
} from '../src/test-support/fake-device-client.js';
import { buildServer } from '../src/server.js';
import { createTestContext } from '../src/test-support/test-context.js';
import { createTestDatabase } from '../src/test-support/test-database.js';
import type { TestServer } from '../src/test-support/test-server.js';
import {
  createFleet,
  createOrganization,
  expectBalenaError,
  failureOf,
  registerUser,
} from './contract-helpers.js';

type Fleet = Awaited<ReturnType<typeof createFleet>>;
type Registration = { id: number; uuid: string; api_key: string };

// The whole server, its cloudlink answering a silent device within 2 s.
const startServer = async (): Promise<TestServer> => {
  const db = await createTestDatabase();
  const ctx = createTestContext(db, { config: { loginRateLimitPerMinute: 1000 } });
  const app = buildServer(ctx, { cloudlink: { actionTimeoutMs: 2_000 } });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    ctx,
    db,
    url,
    async close() {
      await app.close();
      await db.close();
    },
  };
};

// What balena-supervisor answers on its v1 API, for the fake device to answer with.
const supervisorOk = { Data: 'OK', Error: null };
const supervisorState = {
  api_port: 48484,
  ip_address: '192.168.1.42',
  os_version: 'balenaOS 6.0.0',
  supervisor_version: '17.0.0',
  update_pending: false,
  update_failed: false,
  update_downloaded: false,
  status: 'Idle',
  download_progress: null,
};

describe('device actions: balena-sdk against Flotilla with a device on the cloudlink', () => {
  let server: TestServer;
  let sdk: BalenaSDK;
  let fleet: Fleet;
  let device: Registration;
  let fake: FakeDevice;
  // Builds of the fleet's services, as the service calls name them.
  const images: number[] = [];
  const answer: FakeAnswer = (request) =>
    request.action === 'device-state'
      ? { status: 200, body: supervisorState }
      : { status: 200, body: supervisorOk };

  const lastReceived = () => fake.received.at(-1);

  beforeAll(async () => {
    server = await startServer();
    sdk = (await registerUser(server.url, 'actions')).sdk;
    const org = await createOrganization(sdk, 'Actions org');
    fleet = await createFleet(sdk, org.id, 'actions');
    device = await sdk.models.device.register(fleet.id, sdk.models.device.generateUniqueKey());
    // The service calls require a supervisor of 7.0.0 or later, as the device reports it.
    await server.db.query('UPDATE "device" SET "supervisor_version" = $2 WHERE "id" = $1', [
      device.id,
      '17.0.0',
    ]);
    for (const name of ['first', 'second', 'third']) {
      const { rows } = await server.db.query<{ id: number }>(
        `WITH s AS (
           INSERT INTO "service" ("application", "service_name") VALUES ($1, $2) RETURNING "id"
         )
         INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "status")
         SELECT s."id", 'registry.test/' || $2, 'success' FROM s RETURNING "id"`,
        [fleet.id, name],
      );
      images.push(rows[0]?.id ?? 0);
    }
    // The key /device/register returned is the device's own: the fake agent connects with it.
    fake = await connectFakeDevice(server.url, device.api_key, { uuid: device.uuid, answer });
  });

  afterAll(async () => {
    await fake?.close();
    await server?.close();
  });

  it('the cloudlink shows as is_connected_to_vpn', async () => {
    await expect
      .poll(async () => (await sdk.models.device.get(device.uuid)).is_connected_to_vpn)
      .toBe(true);
  });

  it('reboot sends reboot (force as given) and returns the supervisor’s body', async () => {
    expect(await sdk.models.device.reboot(device.uuid)).toEqual(supervisorOk);
    expect(lastReceived()).toMatchObject({
      type: 'action',
      action: 'reboot',
      params: { force: false },
    });
    await sdk.models.device.reboot(device.id, { force: true });
    expect(lastReceived()).toMatchObject({ action: 'reboot', params: { force: true } });
  });

  it('identify blinks the device', async () => {
    expect(await sdk.models.device.identify(device.uuid)).toBeUndefined();
    expect(lastReceived()).toMatchObject({ action: 'blink', params: {} });
  });

  it('restartApplication restarts the fleet’s services on the device', async () => {
    expect(await sdk.models.device.restartApplication(device.uuid)).toEqual(supervisorOk);
    expect(lastReceived()).toMatchObject({
      action: 'restart-services',
      params: { appId: fleet.id },
    });
  });

  it('shutdown, purge and update send their actions', async () => {
    await sdk.models.device.shutdown(device.uuid, { force: true });
    expect(lastReceived()).toMatchObject({ action: 'shutdown', params: { force: true } });
    await sdk.models.device.purge(device.uuid);
    expect(lastReceived()).toMatchObject({ action: 'purge', params: { appId: fleet.id } });
    await sdk.models.device.update(device.uuid, { force: true });
    expect(lastReceived()).toMatchObject({ action: 'update', params: { force: true } });
  });

  it('getSupervisorState returns the device’s state', async () => {
    expect(await sdk.models.device.getSupervisorState(device.uuid)).toEqual(supervisorState);
    expect(lastReceived()).toMatchObject({ action: 'device-state', params: {} });
  });

  it('start, stop and restart a service by image id', async () => {
    const [first = 0, second = 0, third = 0] = images;
    await sdk.models.device.startService(device.uuid, first);
    expect(lastReceived()).toMatchObject({
      action: 'start-service',
      params: { appId: fleet.id, imageId: first },
    });
    await sdk.models.device.stopService(device.uuid, second);
    expect(lastReceived()).toMatchObject({
      action: 'stop-service',
      params: { appId: fleet.id, imageId: second },
    });
    await sdk.models.device.restartService(device.uuid, third);
    expect(lastReceived()).toMatchObject({
      action: 'restart-service',
      params: { appId: fleet.id, imageId: third },
    });
  });

  it('ping reaches the device', async () => {
    await sdk.models.device.ping(device.uuid);
    expect(lastReceived()).toMatchObject({ action: 'ping' });
  });

  it('application.restart, reboot, shutdown and purge reach every online device', async () => {
    await sdk.models.application.restart(fleet.slug);
    expect(lastReceived()).toMatchObject({
      action: 'restart-services',
      params: { appId: fleet.id },
    });
    await sdk.models.application.reboot(fleet.id, { force: true });
    expect(lastReceived()).toMatchObject({ action: 'reboot', params: { force: true } });
    await sdk.models.application.shutdown(fleet.id, { force: false });
    expect(lastReceived()).toMatchObject({ action: 'shutdown', params: { force: false } });
    await sdk.models.application.purge(fleet.id);
    expect(lastReceived()).toMatchObject({ action: 'purge', params: { appId: fleet.id } });
  });

  it('an update lock surfaces as BalenaSupervisorLockedError', async () => {
    fake.answer = () => ({ status: 423, body: 'Updates are locked' });
    try {
      await expectBalenaError(sdk.models.device.reboot(device.uuid), 'BalenaSupervisorLockedError');
      await expectBalenaError(
        sdk.models.device.shutdown(device.uuid, { force: false }),
        'BalenaSupervisorLockedError',
      );
      await expectBalenaError(
        sdk.models.device.restartApplication(device.uuid),
        'BalenaSupervisorLockedError',
      );
      await expectBalenaError(
        sdk.models.device.stopService(device.uuid, images[1] ?? 0),
        'BalenaSupervisorLockedError',
      );
      await expectBalenaError(
        sdk.models.application.restart(fleet.id),
        'BalenaSupervisorLockedError',
      );
    } finally {
      fake.answer = answer;
    }
  });

  it('an offline device is a clear request error, not a hang', async () => {
    const offline = await sdk.models.device.register(
      fleet.id,
      sdk.models.device.generateUniqueKey(),
    );
    const error = await failureOf(sdk.models.device.reboot(offline.uuid));
    expect(error.code).toBe('BalenaRequestError');
    expect(error.statusCode).toBe(503);
    expect(error.message).toContain('No online device(s) found');
  });

  it('a user without supervisor-proxy-write gets 401 and the device hears nothing', async () => {
    const outsider = (await registerUser(server.url, 'outsider')).sdk;
    const before = fake.received.length;
    const error = await failureOf(
      outsider.request.send({
        method: 'POST',
        url: '/supervisor/v1/reboot',
        baseUrl: server.url,
        body: { deviceId: device.id, data: { force: true } },
      }),
    );
    expect(error.statusCode).toBe(401);
    expect(fake.received).toHaveLength(before);
  });
});
