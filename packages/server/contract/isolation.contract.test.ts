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
  type SdkError,
  uniqueSuffix,
} from './contract-helpers.js';

type Fleet = Awaited<ReturnType<typeof createFleet>>;

// Every id a user can list of the resources that hold another user's data. Raw pine reads through
// the SDK's own client: the SDK has no "list every tag/variable/device" model call.
const visibleIds = async (sdk: BalenaSDK) => {
  const ids = async (
    resource:
      | 'device'
      | 'device_tag'
      | 'application_tag'
      | 'application_environment_variable'
      | 'application_config_variable'
      | 'device_environment_variable'
      | 'device_config_variable'
      | 'api_key',
  ): Promise<number[]> =>
    (await sdk.pine.get({ resource, options: { $select: 'id' } })).map((row) => row.id);
  return {
    organizations: (await sdk.models.organization.getAll()).map((org) => org.id),
    applications: (await sdk.models.application.getAll()).map((app) => app.id),
    directlyAccessible: (await sdk.models.application.getAllDirectlyAccessible()).map(
      (app) => app.id,
    ),
    apiKeys: (await sdk.models.apiKey.getAll()).map((key) => key.id),
    devices: await ids('device'),
    deviceTags: await ids('device_tag'),
    applicationTags: await ids('application_tag'),
    applicationEnvVars: await ids('application_environment_variable'),
    applicationConfigVars: await ids('application_config_variable'),
    deviceEnvVars: await ids('device_environment_variable'),
    deviceConfigVars: await ids('device_config_variable'),
  };
};

type VisibleIds = Awaited<ReturnType<typeof visibleIds>>;

describe('isolation: one user never sees nor changes another user’s data', () => {
  let server: TestServer;
  let alice: BalenaSDK;
  let bob: BalenaSDK;
  let aliceOrg: Awaited<ReturnType<typeof createOrganization>>;
  let aliceFleet: Fleet;
  let aliceDevice: { id: number; uuid: string };
  let aliceActor: number;
  // What Alice owns, by resource: the ids Bob must not see.
  let owned: VisibleIds;

  beforeAll(async () => {
    server = await startTestServer();
    alice = (await registerUser(server.url, 'alice')).sdk;
    bob = (await registerUser(server.url, 'bob')).sdk;
    aliceActor = (await alice.auth.getUserInfo()).actor;

    aliceOrg = await createOrganization(alice, 'Alice org');
    aliceFleet = await createFleet(alice, aliceOrg.id, 'alice');
    // Provisioning has its own tests (devices); here the device is written as it would leave it.
    aliceDevice = await insertDevice(server, {
      fleetId: aliceFleet.id,
      deviceTypeId: (await alice.models.deviceType.get(deviceTypeSlug, { $select: 'id' })).id,
      userId: (await alice.auth.getUserInfo()).id,
    });
    await alice.models.application.tags.set(aliceFleet.id, 'OWNER', 'alice');
    await alice.models.application.envVar.set(aliceFleet.id, 'SECRET', 'alice-secret');
    await alice.models.application.configVar.set(
      aliceFleet.id,
      'BALENA_SUPERVISOR_POLL_INTERVAL',
      '900000',
    );
    await alice.models.device.tags.set(aliceDevice.uuid, 'ROOM', 'alice-kitchen');
    await alice.models.device.envVar.set(aliceDevice.uuid, 'DEVICE_SECRET', 'alice-device');
    await alice.models.device.configVar.set(
      aliceDevice.uuid,
      'BALENA_SUPERVISOR_POLL_INTERVAL',
      '700000',
    );
    await alice.models.apiKey.create({ name: 'alice key', expiryDate: inOneYear() });
    owned = await visibleIds(alice);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('the owner sees all of her data (so the checks below are not vacuous)', () => {
    expect(owned.organizations).toContain(aliceOrg.id);
    expect(owned.applications).toContain(aliceFleet.id);
    expect(owned.directlyAccessible).toContain(aliceFleet.id);
    expect(owned.devices).toContain(aliceDevice.id);
    for (const list of [
      owned.apiKeys,
      owned.deviceTags,
      owned.applicationTags,
      owned.applicationEnvVars,
      owned.applicationConfigVars,
      owned.deviceEnvVars,
      owned.deviceConfigVars,
    ]) {
      expect(list.length).toBeGreaterThan(0);
    }
  });

  it("a second user's listings contain none of the first user's rows", async () => {
    const seen = await visibleIds(bob);
    for (const key of Object.keys(owned) as (keyof VisibleIds)[]) {
      const leaked = seen[key].filter((id) => owned[key].includes(id));
      expect(leaked, `${key} visible to another user`).toEqual([]);
    }
    // Bob's own api key listing holds nothing of Alice's actor.
    const bobKeys = await bob.models.apiKey.getAll();
    expect(
      bobKeys.filter(
        (key) => JSON.stringify(key.is_of__actor) === JSON.stringify({ __id: aliceActor }),
      ),
    ).toEqual([]);
  });

  it("get of the other user's organization, fleet and device is not found", async () => {
    await expectBalenaError(bob.models.organization.get(aliceOrg.id), 'BalenaOrganizationNotFound');
    await expectBalenaError(
      bob.models.organization.get(aliceOrg.handle),
      'BalenaOrganizationNotFound',
    );
    await expectBalenaError(bob.models.application.get(aliceFleet.id), 'BalenaApplicationNotFound');
    await expectBalenaError(
      bob.models.application.get(aliceFleet.slug),
      'BalenaApplicationNotFound',
    );
    await expectBalenaError(bob.models.device.get(aliceDevice.uuid), 'BalenaDeviceNotFound');
    await expectBalenaError(bob.models.device.get(aliceDevice.id), 'BalenaDeviceNotFound');
    await expectBalenaError(
      bob.models.application.envVar.getAllByApplication(aliceFleet.id),
      'BalenaApplicationNotFound',
    );
    await expectBalenaError(
      bob.models.device.tags.getAllByDevice(aliceDevice.uuid),
      'BalenaDeviceNotFound',
    );
  });

  it("renaming or removing the other user's fleet fails and changes nothing", async () => {
    await expectBalenaError(
      bob.models.application.rename(aliceFleet.id, `hijacked-${uniqueSuffix()}`),
      'BalenaApplicationNotFound',
    );
    await expectBalenaError(
      bob.models.application.remove(aliceFleet.id),
      'BalenaApplicationNotFound',
    );
    await expectBalenaError(
      bob.models.application.remove(aliceFleet.slug),
      'BalenaApplicationNotFound',
    );
    // The same writes sent straight to /v7, bypassing the SDK's lookups.
    await bob.pine
      .patch({ resource: 'application', id: aliceFleet.id, body: { app_name: 'hijacked' } })
      .catch(() => undefined);
    await bob.pine.delete({ resource: 'application', id: aliceFleet.id }).catch(() => undefined);
    await bob.pine
      .patch({
        resource: 'application',
        options: { $filter: { id: aliceFleet.id } },
        body: { app_name: 'hijacked-bulk' },
      })
      .catch(() => undefined);

    const reread = await alice.models.application.get(aliceFleet.id);
    expect(reread).toMatchObject({ app_name: aliceFleet.name, slug: aliceFleet.slug });
  });

  it("renaming or removing the other user's device or organization changes nothing", async () => {
    await expectBalenaError(
      bob.models.device.rename(aliceDevice.uuid, 'hijacked'),
      'BalenaDeviceNotFound',
    );
    await expectBalenaError(bob.models.device.remove(aliceDevice.uuid), 'BalenaDeviceNotFound');
    await expectBalenaError(
      bob.models.organization.remove(aliceOrg.handle),
      'BalenaOrganizationNotFound',
    );
    await bob.pine
      .patch({
        resource: 'device',
        options: { $filter: { id: { $in: [aliceDevice.id] } } },
        body: { device_name: 'hijacked' },
      })
      .catch(() => undefined);
    await bob.pine
      .delete({ resource: 'device', options: { $filter: { id: { $in: [aliceDevice.id] } } } })
      .catch(() => undefined);
    await bob.pine.delete({ resource: 'organization', id: aliceOrg.id }).catch(() => undefined);

    const device = await alice.models.device.get(aliceDevice.uuid, { $select: 'device_name' });
    expect(device.device_name).not.toBe('hijacked');
    expect((await alice.models.organization.get(aliceOrg.id)).handle).toBe(aliceOrg.handle);
  });

  // The SDK posts straight away when given an id; the server's 401 for a row pointing at an
  // invisible parent makes it re-check the parent and throw the typed not-found error.
  const intrusions = (key: { fleetTag: string; envVar: string; deviceTag: string }) => [
    () => bob.models.application.tags.set(aliceFleet.id, key.fleetTag, 'bob'),
    () => bob.models.application.envVar.set(aliceFleet.id, key.envVar, 'bob'),
    () => bob.models.device.tags.set(aliceDevice.id, key.deviceTag, 'bob'),
  ];
  // One after the other: each attempt starts only once the previous one settled.
  const codesOf = async (attempts: (() => Promise<unknown>)[]): Promise<(string | undefined)[]> => {
    const codes: (string | undefined)[] = [];
    for (const attempt of attempts) {
      codes.push(
        await attempt().then(
          () => 'resolved',
          (error: SdkError) => error.code,
        ),
      );
    }
    return codes;
  };
  const refused = [
    'BalenaApplicationNotFound',
    'BalenaApplicationNotFound',
    'BalenaDeviceNotFound',
  ];

  it("a tag or variable with a new key on the other user's fleet or device is refused", async () => {
    expect(
      await codesOf(
        intrusions({ fleetTag: 'INTRUDER', envVar: 'INTRUDER', deviceTag: 'INTRUDER' }),
      ),
    ).toEqual(refused);
    const fleetTags = await alice.models.application.tags.getAllByApplication(aliceFleet.id);
    expect(fleetTags.map((t) => t.tag_key)).toEqual(['OWNER']);
    expect(await alice.models.application.envVar.get(aliceFleet.id, 'INTRUDER')).toBeUndefined();
    const deviceTags = await alice.models.device.tags.getAllByDevice(aliceDevice.uuid);
    expect(deviceTags.map((t) => t.tag_key)).toEqual(['ROOM']);
  });

  it('a tag or variable whose key the other user already uses is refused, not a silent no-op', async () => {
    // A 409 here would both reveal that the key exists and make the SDK's upsert PATCH (which
    // matches nothing for this caller) look like a success.
    expect(
      await codesOf(intrusions({ fleetTag: 'OWNER', envVar: 'SECRET', deviceTag: 'ROOM' })),
    ).toEqual(refused);
    expect(
      (await alice.models.application.tags.getAllByApplication(aliceFleet.id)).map((t) => t.value),
    ).toEqual(['alice']);
    expect(await alice.models.application.envVar.get(aliceFleet.id, 'SECRET')).toBe('alice-secret');
    expect(
      (await alice.models.device.tags.getAllByDevice(aliceDevice.uuid)).map((t) => t.value),
    ).toEqual(['alice-kitchen']);
  });

  it("creating a fleet in the other user's organization is refused with 401", async () => {
    await expectBalenaError(
      bob.models.application.create({
        name: `intruder-${uniqueSuffix()}`,
        deviceType: deviceTypeSlug,
        organization: aliceOrg.id,
      }),
      'BalenaOrganizationNotFound',
    );
    const deviceTypeId = (await bob.models.deviceType.get(deviceTypeSlug, { $select: 'id' })).id;
    const name = `intruder-${uniqueSuffix()}`;
    const error = await failureOf(
      bob.pine.post({
        resource: 'application',
        body: { app_name: name, organization: aliceOrg.id, is_for__device_type: deviceTypeId },
      }),
    );
    expect(error.statusCode).toBe(401);
    const inOrg = await alice.models.application.getAllByOrganization(aliceOrg.id);
    expect(inOrg.map((app) => app.app_name)).not.toContain(name);
  });

  it("a provisioning key for the other user's fleet is refused", async () => {
    const error = await failureOf(
      bob.request.send({
        method: 'POST',
        url: '/api-key/v2/',
        baseUrl: server.url,
        body: {
          actorType: 'application',
          actorTypeId: aliceFleet.id,
          roles: ['provisioning-api-key'],
          expiryDate: inOneYear(),
        },
      }),
    );
    expect([401, 403, 404]).toContain(error.statusCode);
  });

  it("revoking the other user's api key is refused and the key keeps working", async () => {
    const name = `alice-revocable-${uniqueSuffix()}`;
    const key = await alice.models.apiKey.create({ name, expiryDate: inOneYear() });
    const keyId = (await alice.models.apiKey.getAll()).find((k) => k.name === name)?.id;
    if (keyId === undefined) throw new Error('created key not listed');
    await bob.models.apiKey.revoke(keyId).catch(() => undefined);
    await bob.models.apiKey.update(keyId, { name: 'stolen' }).catch(() => undefined);
    const viaKey = newSdk(server.url);
    await viaKey.auth.loginWithToken(key);
    expect(await viaKey.auth.isLoggedIn()).toBe(true);
    expect((await alice.models.apiKey.getAll()).find((k) => k.id === keyId)?.name).toBe(name);
  });

  it("a device key cannot move its device into another organization's public fleet", async () => {
    // The reported attack (issue 7): move into a public fleet, then read its secret variables.
    const bobOrg = await createOrganization(bob, 'Bob public');
    const publicFleet = await createFleet(bob, bobOrg.id, 'public');
    await server.ctx.db.query('UPDATE "application" SET "is_public" = true WHERE "id" = $1', [
      publicFleet.id,
    ]);
    await bob.models.application.envVar.set(publicFleet.id, 'PUBLIC_FLEET_SECRET', 'bob-secret');
    const asDevice = newSdk(server.url);
    await asDevice.auth.loginWithToken(
      await alice.models.device.generateDeviceKey(aliceDevice.uuid),
    );
    const error = await failureOf(
      asDevice.pine.patch({
        resource: 'device',
        id: aliceDevice.id,
        body: { belongs_to__application: publicFleet.id },
      }),
    );
    expect(error.statusCode).toBe(401);
    const device = await alice.models.device.get(aliceDevice.uuid, {
      $select: 'belongs_to__application',
    });
    expect(device.belongs_to__application).toEqual({ __id: aliceFleet.id });
    const leaked = await asDevice.pine.get({
      resource: 'application_environment_variable',
      options: { $select: 'value', $filter: { application: publicFleet.id } },
    });
    expect(leaked).toEqual([]);
  });

  it("a logged-out SDK lists none of the user's fleets", async () => {
    const anonymous = newSdk(server.url);
    let apps: { id: number }[] = [];
    try {
      apps = await anonymous.models.application.getAll();
    } catch (error) {
      // A 401 with no stored key is the SDK's BalenaNotLoggedIn.
      expect((error as SdkError).code).toBe('BalenaNotLoggedIn');
    }
    expect(apps.map((app) => app.id)).not.toContain(aliceFleet.id);
  });
});
