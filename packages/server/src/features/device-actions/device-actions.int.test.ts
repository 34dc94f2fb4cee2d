import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { type Database, openDatabase } from '../../infra/db/database.js';
import { composeServer } from '../../server.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import {
  connectFakeDevice,
  type FakeAnswer,
  type FakeDevice,
} from '../../test-support/fake-device-client.js';
import type { Cloudlink } from '../cloudlink/register-cloudlink.js';
import { registerDeviceActions } from './register-device-actions.js';
import { waitFor } from '../../test-support/wait-for.js';

type Node = { app: FastifyInstance; ctx: AppContext; cloudlink: Cloudlink; url: string };

// One server process with the cloudlink and the device actions (no-ops if server.ts wires them).
const startNode = async (db: Database): Promise<Node> => {
  const ctx = createTestContext(db);
  const { app, cloudlink } = composeServer(ctx, {
    cloudlink: { actionTimeoutMs: 1_000, nodeHeartbeatMs: 500 },
  });
  registerDeviceActions(app, ctx, cloudlink);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, ctx, cloudlink, url };
};

let db: Database;
let node: Node;
let fleet: fx.FleetFixture;
let otherFleet: fx.FleetFixture;
let operatorKey: string;
let observerKey: string;
let strangerKey: string;
const connected: FakeDevice[] = [];

type Device = fx.DeviceFixture & { key: string };
const newDevice = async (fleetId = fleet.id): Promise<Device> => {
  const device = await fx.createDevice(db, fleetId, `dev-${randomBytes(3).toString('hex')}`);
  return { ...device, key: await createApiKey(db, device.actorId, { name: 'device key' }) };
};

// A build of a service of the fleet, as container actions name it.
const createImage = async (fleetId: number, serviceName: string): Promise<number> => {
  const { rows } = await db.query<{ id: number }>(
    `WITH s AS (
       INSERT INTO "service" ("application", "service_name") VALUES ($1, $2) RETURNING "id"
     )
     INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "status")
     SELECT s."id", 'registry.test/' || $2, 'success' FROM s RETURNING "id"`,
    [fleetId, serviceName],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('no image');
  return id;
};

const userKeyWithRole = async (name: string, role: string | undefined): Promise<string> => {
  const user = await fx.createUser(db, name);
  if (role) await fx.addFleetMember(db, user.userId, fleet.id, role);
  return createApiKey(db, user.actorId, { name: `${name} key` });
};

const connect = async (on: Node, device: Device, answer?: FakeAnswer): Promise<FakeDevice> => {
  const fake = await connectFakeDevice(on.url, device.key, { uuid: device.uuid, answer });
  connected.push(fake);
  await waitFor('the session', async () => {
    const { rows } = await db.query<{ node_id: string }>(
      'SELECT "node_id" FROM "cloudlink_session" WHERE "device" = $1',
      [device.id],
    );
    return rows[0]?.node_id === on.cloudlink.nodeId;
  });
  return fake;
};

const post = (url: string, key: string | undefined, payload?: Record<string, unknown>, on = node) =>
  on.app.inject({
    method: 'POST',
    url,
    ...(payload === undefined ? {} : { payload }),
    ...(key === undefined ? {} : { headers: { authorization: `Bearer ${key}` } }),
  });

beforeAll(async () => {
  db = await createTestDatabase();
  node = await startNode(db);
  const organization = await fx.createOrganization(db, 'Actors');
  fleet = await fx.createFleet(db, organization, 'Acted');
  otherFleet = await fx.createFleet(db, organization, 'Elsewhere');
  operatorKey = await userKeyWithRole('operator', 'operator');
  observerKey = await userKeyWithRole('observer', 'observer');
  strangerKey = await userKeyWithRole('stranger', undefined);
});
afterAll(async () => {
  await Promise.all(connected.map((fake) => fake.close()));
  await node?.app.close();
  await db?.close();
});

describe('POST /supervisor/* for one device', () => {
  it('forwards each endpoint as its cloudlink action and passes the answer through', async () => {
    const device = await newDevice();
    const imageId = await createImage(fleet.id, `main-${device.id}`);
    const fake = await connect(node, device, (request) =>
      request.action === 'device-state'
        ? { status: 200, body: { status: 'Idle', update_pending: false } }
        : { status: 200, body: { Data: 'OK', Error: null } },
    );
    const calls: [string, Record<string, unknown>, string, Record<string, unknown>][] = [
      ['/supervisor/ping', { method: 'GET', deviceId: device.id, appId: fleet.id }, 'ping', {}],
      ['/supervisor/v1/blink', { uuid: device.uuid }, 'blink', {}],
      [
        '/supervisor/v1/restart',
        { deviceId: device.id, appId: fleet.id, data: { appId: fleet.id } },
        'restart-services',
        { appId: fleet.id },
      ],
      [
        '/supervisor/v1/reboot',
        { deviceId: device.id, data: { force: true } },
        'reboot',
        { force: true },
      ],
      [
        '/supervisor/v1/shutdown',
        { deviceId: device.id, appId: fleet.id, data: { force: false } },
        'shutdown',
        { force: false },
      ],
      [
        '/supervisor/v1/purge',
        { deviceId: device.id, appId: fleet.id, data: { appId: String(fleet.id) } },
        'purge',
        { appId: fleet.id },
      ],
      [
        '/supervisor/v1/update',
        { deviceId: device.id, appId: fleet.id, data: { force: true } },
        'update',
        { force: true },
      ],
      ['/supervisor/v1/device', { uuid: device.uuid, method: 'GET' }, 'device-state', {}],
      ...(['start', 'stop', 'restart'] as const).map(
        (verb): [string, Record<string, unknown>, string, Record<string, unknown>] => [
          `/supervisor/v2/applications/${fleet.id}/${verb}-service`,
          { deviceId: device.id, appId: fleet.id, data: { appId: fleet.id, imageId } },
          `${verb}-service`,
          { appId: fleet.id, imageId },
        ],
      ),
    ];
    for (const [url, body, action, params] of calls) {
      const response = await post(url, operatorKey, body);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      expect(fake.received.at(-1), url).toMatchObject({ type: 'action', action, params });
      const expected =
        action === 'device-state'
          ? { status: 'Idle', update_pending: false }
          : { Data: 'OK', Error: null };
      expect(response.json(), url).toEqual(expected);
    }
    expect(fake.received).toHaveLength(calls.length);
  });

  it('answers 423 when an update lock refuses, and passes text bodies as text', async () => {
    const device = await newDevice();
    await connect(node, device, (request) =>
      request.params.force === true
        ? { status: 202, body: 'Rebooting' }
        : { status: 423, body: 'Updates are locked' },
    );
    const locked = await post('/supervisor/v1/reboot', operatorKey, {
      deviceId: device.id,
      data: { force: false },
    });
    expect(locked.statusCode).toBe(423);
    expect(locked.body).toBe('Updates are locked');
    expect(locked.headers['content-type']).toMatch(/^text\/plain/);
    const forced = await post('/supervisor/v1/reboot', operatorKey, {
      deviceId: device.id,
      data: { force: true },
    });
    expect([forced.statusCode, forced.body]).toEqual([202, 'Rebooting']);
  });

  it('answers 401 to callers without supervisor-proxy-write, and the device hears nothing', async () => {
    const device = await newDevice();
    const fake = await connect(node, device);
    const deviceKeyCaller = (await newDevice()).key;
    for (const key of [observerKey, strangerKey, deviceKeyCaller, undefined]) {
      const response = await post('/supervisor/v1/reboot', key, {
        deviceId: device.id,
        data: { force: true },
      });
      expect(response.statusCode, response.body).toBe(401);
    }
    expect(
      (await post('/supervisor/v1/blink', observerKey, { uuid: device.uuid })).statusCode,
    ).toBe(401);
    expect(fake.received).toEqual([]);
  });

  it('answers 401 for unknown devices and for a device outside the named fleet', async () => {
    const device = await newDevice();
    expect(
      (await post('/supervisor/v1/blink', operatorKey, { deviceId: 987_654 })).statusCode,
    ).toBe(401);
    expect(
      (await post('/supervisor/v1/blink', operatorKey, { uuid: 'f'.repeat(32) })).statusCode,
    ).toBe(401);
    expect(
      (
        await post('/supervisor/v1/blink', operatorKey, {
          deviceId: device.id,
          appId: otherFleet.id,
        })
      ).statusCode,
    ).toBe(401);
  });

  it('answers 503 "No online device(s) found" at once for a device without a cloudlink', async () => {
    const device = await newDevice();
    const response = await post('/supervisor/v1/reboot', operatorKey, {
      deviceId: device.id,
      data: { force: false },
    });
    // Not "Device did not answer within 1 s": no wait for an answer.
    expect([response.statusCode, response.body]).toEqual([503, 'No online device(s) found']);
  });

  it('answers 503 when a connected device does not answer in time', async () => {
    const device = await newDevice();
    await connect(node, device, () => undefined);
    const response = await post('/supervisor/v1/blink', operatorKey, { uuid: device.uuid });
    expect([response.statusCode, response.body]).toEqual([503, 'Device did not answer within 1 s']);
  });

  it('validates the body', async () => {
    const device = await newDevice();
    const noTarget = await post('/supervisor/v1/reboot', operatorKey, { data: { force: true } });
    expect([noTarget.statusCode, noTarget.body]).toEqual([
      400,
      'uuid, deviceId or appId is required',
    ]);
    const badId = await post('/supervisor/v1/reboot', operatorKey, { deviceId: 'one' });
    expect(badId.statusCode).toBe(400);
    const noImage = await post(
      `/supervisor/v2/applications/${fleet.id}/stop-service`,
      operatorKey,
      {
        deviceId: device.id,
        data: { appId: fleet.id },
      },
    );
    expect([noImage.statusCode, noImage.body]).toEqual([
      400,
      'data.imageId or data.serviceName is required',
    ]);
  });

  it('answers "Image not found" for an image that is no build of the device\'s fleet', async () => {
    const device = await newDevice();
    const fake = await connect(node, device, () => ({ status: 200, body: 'OK' }));
    const elsewhere = await createImage(otherFleet.id, `other-${device.id}`);
    for (const imageId of [elsewhere, 2_000_000_000]) {
      const response = await post(
        `/supervisor/v2/applications/${fleet.id}/restart-service`,
        operatorKey,
        { deviceId: device.id, appId: fleet.id, data: { appId: fleet.id, imageId } },
      );
      expect([response.statusCode, response.body]).toEqual([404, 'Image not found']);
    }
    // Nothing reached the device.
    expect(fake.received.filter((message) => message.type === 'action')).toEqual([]);
  });
});

describe('POST /supervisor/* for a fleet (appId alone)', () => {
  let fanFleet: fx.FleetFixture;
  let fanOperatorKey: string;
  beforeAll(async () => {
    const organization = await fx.createOrganization(db, 'Fans');
    fanFleet = await fx.createFleet(db, organization, 'Fanned');
    const user = await fx.createUser(db, 'fan-operator');
    await fx.addFleetMember(db, user.userId, fanFleet.id, 'operator');
    fanOperatorKey = await createApiKey(db, user.actorId, { name: 'fan key' });
  });

  it('answers 503 while no device of the fleet is online', async () => {
    await newDevice(fanFleet.id);
    const response = await post('/supervisor/v1/reboot', fanOperatorKey, {
      appId: fanFleet.id,
      data: { force: false },
    });
    expect([response.statusCode, response.body]).toEqual([503, 'No online device(s) found']);
  });

  it('fans out to every online device and answers 207 with each outcome', async () => {
    const first = await newDevice(fanFleet.id);
    const second = await newDevice(fanFleet.id);
    const fakeFirst = await connect(node, first, () => ({ status: 200, body: 'OK' }));
    const fakeSecond = await connect(node, second, () => ({ status: 423, body: 'locked' }));
    const response = await post('/supervisor/v1/reboot', fanOperatorKey, {
      appId: fanFleet.id,
      data: { force: false },
    });
    expect(response.statusCode, response.body).toBe(207);
    expect(response.json()).toEqual([
      { statusCode: 200, body: 'OK' },
      { statusCode: 423, body: 'locked' },
    ]);
    for (const fake of [fakeFirst, fakeSecond]) {
      expect(fake.received).toMatchObject([{ action: 'reboot', params: { force: false } }]);
    }
  });

  it('answers 401 to an observer and to a stranger', async () => {
    expect(
      (await post('/supervisor/v1/reboot', observerKey, { appId: fleet.id, data: {} })).statusCode,
    ).toBe(401);
    expect(
      (await post('/supervisor/v1/reboot', strangerKey, { appId: fanFleet.id, data: {} }))
        .statusCode,
    ).toBe(401);
  });
});

describe('POST /application/:id/restart', () => {
  it('restarts the services of every online device of the fleet', async () => {
    const organization = await fx.createOrganization(db, 'Restarters');
    const restartFleet = await fx.createFleet(db, organization, 'Restarted');
    const user = await fx.createUser(db, 'restarter');
    await fx.addFleetMember(db, user.userId, restartFleet.id, 'operator');
    const key = await createApiKey(db, user.actorId, { name: 'restart key' });

    const empty = await post(`/application/${restartFleet.id}/restart`, key);
    expect([empty.statusCode, empty.json()]).toEqual([200, []]);

    const device = await newDevice(restartFleet.id);
    const fake = await connect(node, device);
    const response = await post(`/application/${restartFleet.id}/restart`, key);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual([{ statusCode: 200, body: 'OK' }]);
    expect(fake.received).toMatchObject([
      { action: 'restart-services', params: { appId: restartFleet.id } },
    ]);

    fake.answer = () => ({ status: 423, body: 'locked' });
    expect((await post(`/application/${restartFleet.id}/restart`, key)).statusCode).toBe(423);
    expect((await post(`/application/${restartFleet.id}/restart`, observerKey)).statusCode).toBe(
      401,
    );
    expect((await post(`/application/${restartFleet.id}/restart`, undefined)).statusCode).toBe(401);
  });
});

describe('device actions across two server processes', () => {
  it('reaches a device connected to the other process', async () => {
    const poolB = openDatabase(db.url, { max: 5 });
    const nodeB = await startNode(poolB);
    try {
      const device = await newDevice();
      const fake = await connect(node, device, () => ({ status: 200, body: { Data: 'OK' } }));
      const response = await post(
        '/supervisor/v1/reboot',
        operatorKey,
        { deviceId: device.id, data: { force: true } },
        nodeB,
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ Data: 'OK' });
      expect(fake.received).toMatchObject([{ action: 'reboot', params: { force: true } }]);

      // And the other way round: a device held by B, the call reaching A.
      const other = await newDevice();
      const onB = await connect(nodeB, other, () => ({ status: 423, body: 'locked' }));
      const locked = await post('/supervisor/v1/shutdown', operatorKey, {
        deviceId: other.id,
        appId: fleet.id,
        data: { force: false },
      });
      expect([locked.statusCode, locked.body]).toEqual([423, 'locked']);
      expect(onB.received).toMatchObject([{ action: 'shutdown' }]);
      await onB.close();
    } finally {
      await nodeB.app.close();
      await poolB.close();
    }
  });
});
