import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import {
  createFleet,
  createOrganization,
  deviceTypeSlug,
  expectBalenaError,
  failureOf,
  inOneYear,
  insertDevice,
  newSdk,
  registerUser,
} from './contract-helpers.js';

type Fleet = Awaited<ReturnType<typeof createFleet>>;
type Registration = { id: number; uuid: string; api_key: string };
type DeviceRow = { id: number; uuid: string; name: string };

// The overall_status values balena's SDK knows (DeviceOverallStatus).
const overallStatuses = [
  'configuring',
  'inactive',
  'post-provisioning',
  'updating',
  'operational',
  'disconnected',
  'reduced-functionality',
];

// Another device type of the catalogue on the given CPU architecture (for move tests).
const deviceTypeOnArchitecture = async (
  server: TestServer,
  architecture: string,
): Promise<string | undefined> => {
  const { rows } = await server.ctx.db.query<{ slug: string }>(
    `SELECT dt."slug" FROM "device_type" dt
       JOIN "cpu_architecture" c ON c."id" = dt."is_of__cpu_architecture"
     WHERE c."slug" = $1 AND dt."slug" <> $2 AND NOT dt."is_private"
     ORDER BY dt."slug" LIMIT 1`,
    [architecture, deviceTypeSlug],
  );
  return rows[0]?.slug;
};

describe('devices: balena-sdk device model against Flotilla', () => {
  let server: TestServer;
  let sdk: BalenaSDK;
  let userId: number;
  let deviceTypeId: number;
  let fleet: Fleet;
  // Same CPU architecture as `fleet`, another device type when the catalogue has one.
  let compatibleFleet: Fleet;
  // A device read by most tests; mutating tests make their own.
  let device: DeviceRow;

  const register = async (fleetId = fleet.id): Promise<Registration> =>
    sdk.models.device.register(fleetId, sdk.models.device.generateUniqueKey());
  const newDevice = async (fleetId = fleet.id): Promise<DeviceRow> =>
    insertDevice(server, { fleetId, deviceTypeId, userId });

  beforeAll(async () => {
    server = await startTestServer();
    sdk = (await registerUser(server.url, 'devices')).sdk;
    userId = (await sdk.auth.getUserInfo()).id;
    const org = await createOrganization(sdk, 'Devices org');
    deviceTypeId = (await sdk.models.deviceType.get(deviceTypeSlug, { $select: 'id' })).id;
    fleet = await createFleet(sdk, org.id, 'devices');
    const compatibleSlug = (await deviceTypeOnArchitecture(server, 'aarch64')) ?? deviceTypeSlug;
    compatibleFleet = await createFleet(sdk, org.id, 'compatible', compatibleSlug);
    device = await newDevice();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('generateProvisioningKey returns a key that authenticates as the fleet', async () => {
    const key = await sdk.models.application.generateProvisioningKey({
      slugOrUuidOrId: fleet.id,
      keyExpiryDate: inOneYear(),
      keyName: 'contract provisioning',
      keyDescription: 'made by the devices contract test',
    });
    expect(typeof key).toBe('string');
    expect(key.length).toBeGreaterThanOrEqual(16);
    const asFleet = newSdk(server.url);
    await asFleet.auth.loginWithToken(key);
    expect(await asFleet.auth.whoami()).toMatchObject({
      actorType: 'application',
      actorTypeId: fleet.id,
      slug: fleet.slug,
    });
    // The key is listed among the fleet's provisioning keys, under its name.
    const keys = await sdk.models.apiKey.getProvisioningApiKeysByApplication(fleet.id);
    expect(keys.map((k) => k.name)).toContain('contract provisioning');
  });

  it('register answers with the device id, the given uuid and a device api key', async () => {
    const uuid = sdk.models.device.generateUniqueKey();
    expect(uuid).toMatch(/^[0-9a-f]{32}$/);
    const registration = await sdk.models.device.register(fleet.slug, uuid);
    expect(registration.uuid).toBe(uuid);
    expect(Number.isInteger(registration.id)).toBe(true);
    expect(typeof registration.api_key).toBe('string');
    expect(registration.api_key.length).toBeGreaterThanOrEqual(16);

    // The device key authenticates as that device.
    const asDevice = newSdk(server.url);
    await asDevice.auth.loginWithToken(registration.api_key);
    expect(await asDevice.auth.whoami()).toMatchObject({
      actorType: 'device',
      actorTypeId: registration.id,
      uuid,
    });

    // The new device is in the fleet, of the fleet's device type.
    const got = await sdk.models.device.get(uuid, {
      $select: ['id', 'uuid', 'belongs_to__application', 'is_of__device_type'],
    });
    expect(got).toEqual({
      id: registration.id,
      uuid,
      belongs_to__application: { __id: fleet.id },
      is_of__device_type: { __id: deviceTypeId },
    });
  });

  it('register records the user the SDK names in the body as the device owner', async () => {
    const registration = await register();
    const got = await sdk.models.device.get(registration.uuid, { $select: 'belongs_to__user' });
    expect(got).toEqual({ belongs_to__user: { __id: userId } });
  });

  it('a removed registered device loses its api key', async () => {
    const registration = await register();
    await sdk.models.device.remove(registration.uuid);
    const asDevice = newSdk(server.url);
    await asDevice.auth.loginWithToken(registration.api_key);
    expect(await asDevice.auth.isLoggedIn()).toBe(false);
  });

  it('registering a uuid that is already taken fails with 409 and keeps the first device', async () => {
    const error = await failureOf(sdk.models.device.register(compatibleFleet.id, device.uuid));
    expect(error.statusCode).toBe(409);
    const existing = await sdk.models.device.get(device.uuid, {
      $select: ['id', 'belongs_to__application'],
    });
    expect(existing).toEqual({ id: device.id, belongs_to__application: { __id: fleet.id } });
  });

  it('get by uuid returns the device with unexpanded links as {__id}', async () => {
    const got = await sdk.models.device.get(device.uuid);
    expect(got).toMatchObject({
      id: device.id,
      uuid: device.uuid,
      belongs_to__application: { __id: fleet.id },
      is_of__device_type: { __id: deviceTypeId },
      is_active: true,
    });
    expect(typeof got.device_name).toBe('string');
    expect(got.device_name.length).toBeGreaterThan(0);
    expect(overallStatuses).toContain(got.overall_status);
    expect(got.actor).toEqual({ __id: expect.any(Number) });
    // By id is the same row.
    expect(await sdk.models.device.get(device.id)).toEqual(got);
    expect(await sdk.models.device.getName(device.uuid)).toBe(got.device_name);
    expect(await sdk.models.device.has(device.uuid)).toBe(true);
  });

  it('get with the expansions the SDK uses returns arrays of the linked rows', async () => {
    const got = await sdk.models.device.get(device.uuid, {
      $select: ['id', 'uuid'],
      $expand: {
        belongs_to__application: { $select: ['id', 'app_name', 'slug'] },
        is_of__device_type: {
          $select: ['slug'],
          $expand: { is_of__cpu_architecture: { $select: 'slug' } },
        },
      },
    });
    expect(got).toEqual({
      id: device.id,
      uuid: device.uuid,
      belongs_to__application: [{ id: fleet.id, app_name: fleet.name, slug: fleet.slug }],
      is_of__device_type: [
        { slug: deviceTypeSlug, is_of__cpu_architecture: [{ slug: 'aarch64' }] },
      ],
    });
    expect(await sdk.models.device.getApplicationName(device.uuid)).toBe(fleet.name);
  });

  it('an unknown uuid or id is BalenaDeviceNotFound', async () => {
    await expectBalenaError(
      sdk.models.device.get(sdk.models.device.generateUniqueKey()),
      'BalenaDeviceNotFound',
    );
    await expectBalenaError(sdk.models.device.get(987654321), 'BalenaDeviceNotFound');
    expect(await sdk.models.device.has(sdk.models.device.generateUniqueKey())).toBe(false);
  });

  it('getAllByApplication lists the fleet devices only', async () => {
    const other = await newDevice(compatibleFleet.id);
    const inFleet = await sdk.models.device.getAllByApplication(fleet.id);
    expect(inFleet.map((d) => d.uuid)).toContain(device.uuid);
    expect(inFleet.map((d) => d.uuid)).not.toContain(other.uuid);
    expect(
      inFleet.every(
        (d) => JSON.stringify(d.belongs_to__application) === JSON.stringify({ __id: fleet.id }),
      ),
    ).toBe(true);
    const inOther = await sdk.models.device.getAllByApplication(compatibleFleet.slug, {
      $select: ['id', 'uuid'],
    });
    expect(inOther).toEqual([{ id: other.id, uuid: other.uuid }]);
  });

  it('rename sets device_name, read back by get', async () => {
    const own = await newDevice();
    await sdk.models.device.rename(own.uuid, 'kitchen-sensor');
    expect(await sdk.models.device.getName(own.uuid)).toBe('kitchen-sensor');
    await sdk.models.device.rename(own.id, 'hallway-sensor');
    expect((await sdk.models.device.get(own.id, { $select: 'device_name' })).device_name).toBe(
      'hallway-sensor',
    );
    // Only that device changed.
    expect(await sdk.models.device.getName(device.uuid)).not.toBe('hallway-sensor');
  });

  it('setNote stores the note', async () => {
    await sdk.models.device.setNote(device.uuid, 'mounted behind the fridge');
    expect((await sdk.models.device.get(device.uuid, { $select: 'note' })).note).toBe(
      'mounted behind the fridge',
    );
  });

  it('tags: set, overwrite (409 then PATCH), list by device and by fleet, remove', async () => {
    const tags = sdk.models.device.tags;
    await tags.set(device.uuid, 'ROOM', 'kitchen');
    await tags.set(device.id, 'FLOOR', '1');
    await tags.set(device.uuid, 'ROOM', 'garage');
    const byDevice = await tags.getAllByDevice(device.uuid);
    expect(byDevice.map((t) => [t.tag_key, t.value])).toEqual([
      ['FLOOR', '1'],
      ['ROOM', 'garage'],
    ]);
    expect(byDevice[0]?.device).toEqual({ __id: device.id });
    const byFleet = await tags.getAllByApplication(fleet.id);
    expect(byFleet.filter((t) => t.tag_key === 'ROOM').map((t) => t.value)).toEqual(['garage']);

    await tags.remove(device.uuid, 'ROOM');
    expect((await tags.getAllByDevice(device.id)).map((t) => t.tag_key)).toEqual(['FLOOR']);
  });

  it('environment variables: set, get, overwrite, list, remove', async () => {
    const envVar = sdk.models.device.envVar;
    expect(await envVar.get(device.uuid, 'LOG_LEVEL')).toBeUndefined();
    await envVar.set(device.uuid, 'LOG_LEVEL', 'debug');
    expect(await envVar.get(device.uuid, 'LOG_LEVEL')).toBe('debug');
    await envVar.set(device.id, 'LOG_LEVEL', 'info');
    expect(await envVar.get(device.id, 'LOG_LEVEL')).toBe('info');
    const all = await envVar.getAllByDevice(device.uuid);
    expect(all.map((v) => [v.name, v.value])).toEqual([['LOG_LEVEL', 'info']]);
    expect(all[0]?.device).toEqual({ __id: device.id });
    expect(
      (await envVar.getAllByApplication(fleet.id)).filter((v) => v.name === 'LOG_LEVEL'),
    ).toHaveLength(1);

    await envVar.remove(device.uuid, 'LOG_LEVEL');
    expect(await envVar.get(device.uuid, 'LOG_LEVEL')).toBeUndefined();
    expect(await envVar.getAllByDevice(device.uuid)).toEqual([]);
  });

  it('configuration variables: set, get, overwrite, list, remove', async () => {
    const configVar = sdk.models.device.configVar;
    await configVar.set(device.uuid, 'BALENA_SUPERVISOR_POLL_INTERVAL', '900000');
    expect(await configVar.get(device.uuid, 'BALENA_SUPERVISOR_POLL_INTERVAL')).toBe('900000');
    await configVar.set(device.uuid, 'BALENA_SUPERVISOR_POLL_INTERVAL', '700000');
    expect(await configVar.get(device.id, 'BALENA_SUPERVISOR_POLL_INTERVAL')).toBe('700000');
    const all = await configVar.getAllByDevice(device.uuid);
    expect(all.map((v) => [v.name, v.value])).toEqual([
      ['BALENA_SUPERVISOR_POLL_INTERVAL', '700000'],
    ]);

    await configVar.remove(device.uuid, 'BALENA_SUPERVISOR_POLL_INTERVAL');
    expect(await configVar.get(device.uuid, 'BALENA_SUPERVISOR_POLL_INTERVAL')).toBeUndefined();
    // Device config variables never leak into the environment variables.
    expect(await sdk.models.device.envVar.getAllByDevice(device.uuid)).toEqual([]);
  });

  it('move puts the device in another fleet of a compatible device type', async () => {
    const own = await newDevice();
    await sdk.models.device.move(own.uuid, compatibleFleet.slug);
    const moved = await sdk.models.device.get(own.uuid, {
      $select: ['belongs_to__application', 'is_of__device_type'],
    });
    expect(moved).toEqual({
      belongs_to__application: { __id: compatibleFleet.id },
      // Moving does not change what the hardware is.
      is_of__device_type: { __id: deviceTypeId },
    });
    expect(
      (await sdk.models.device.getAllByApplication(fleet.id)).map((d) => d.uuid),
    ).not.toContain(own.uuid);
    expect(
      (await sdk.models.device.getAllByApplication(compatibleFleet.id)).map((d) => d.uuid),
    ).toContain(own.uuid);
  });

  it('move to a fleet of another CPU architecture is refused and the device stays', async () => {
    const own = await newDevice();
    const amd64 = await deviceTypeOnArchitecture(server, 'amd64');
    if (amd64 === undefined) throw new Error('the catalogue has no amd64 device type');
    const org = await createOrganization(sdk, 'Move org');
    const x86Fleet = await createFleet(sdk, org.id, 'x86', amd64);
    // The SDK decides from the architectures the server reports for both sides.
    await expectBalenaError(
      sdk.models.device.move(own.uuid, x86Fleet.id),
      'BalenaInvalidDeviceType',
    );
    const after = await sdk.models.device.get(own.uuid, { $select: 'belongs_to__application' });
    expect(after).toEqual({ belongs_to__application: { __id: fleet.id } });
  });

  it('remove deletes the device: get is BalenaDeviceNotFound, the fleet no longer lists it', async () => {
    const own = await newDevice();
    await sdk.models.device.tags.set(own.uuid, 'DOOMED', 'yes');
    await sdk.models.device.remove(own.uuid);
    await expectBalenaError(sdk.models.device.get(own.uuid), 'BalenaDeviceNotFound');
    await expectBalenaError(sdk.models.device.get(own.id), 'BalenaDeviceNotFound');
    expect(
      (await sdk.models.device.getAllByApplication(fleet.id)).map((d) => d.uuid),
    ).not.toContain(own.uuid);
    // Its tags went with it.
    const left = await server.ctx.db.query<{ count: number }>(
      'SELECT count(*) AS "count" FROM "device_tag" WHERE "device" = $1',
      [own.id],
    );
    expect(left.rows[0]?.count).toBe(0);
  });
});
