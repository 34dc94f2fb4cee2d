import {
  freshAuthenticationRequiredMessage,
  reauthenticationWindowMs,
} from '@flotilla/shared/auth/reauthentication';
import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFleetMember, addOrganizationMember } from '../src/test-support/fixtures.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import {
  createFleet,
  createOrganization,
  expectBalenaError,
  inOneYear,
  newSdk,
  registerUser,
  uniqueSuffix,
} from './contract-helpers.js';

describe('api keys: balena-sdk apiKey model against Flotilla', () => {
  let server: TestServer;
  let sdk: BalenaSDK;
  let email: string;
  let info: { id: number; actor: number; username: string };

  // A fresh SDK logged in with `key` only.
  const sdkWithKey = async (key: string): Promise<BalenaSDK> => {
    const other = newSdk(server.url);
    await other.auth.loginWithToken(key);
    return other;
  };

  const findByName = async (name: string) =>
    (await sdk.models.apiKey.getAll()).find((key) => key.name === name);

  beforeAll(async () => {
    server = await startTestServer();
    const user = await registerUser(server.url, 'apikeys');
    sdk = user.sdk;
    email = user.email;
    info = await sdk.auth.getUserInfo();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('create returns a key string that logs a second SDK in as the same user', async () => {
    const key = await sdk.models.apiKey.create({
      name: `login-${uniqueSuffix()}`,
      expiryDate: inOneYear(),
      description: 'used by a second SDK',
    });
    expect(typeof key).toBe('string');
    expect(key.length).toBeGreaterThanOrEqual(16);
    const other = await sdkWithKey(key);
    expect(await other.auth.isLoggedIn()).toBe(true);
    expect(await other.auth.whoami()).toMatchObject({
      id: info.actor,
      actorType: 'user',
      actorTypeId: info.id,
      username: info.username,
      email,
    });
    // The key works for resource calls too.
    const org = await other.models.organization.create({ name: `Via key ${uniqueSuffix()}` });
    expect((await sdk.models.organization.get(org.id)).name).toBe(org.name);
  });

  it('getAll lists the key with its name, description and owner, never the secret', async () => {
    const name = `listed-${uniqueSuffix()}`;
    const expiryDate = inOneYear();
    const key = await sdk.models.apiKey.create({ name, expiryDate, description: 'listed key' });
    const listed = await findByName(name);
    expect(listed).toMatchObject({
      name,
      description: 'listed key',
      is_of__actor: { __id: info.actor },
    });
    expect(Number.isInteger(listed?.id)).toBe(true);
    expect(new Date(String(listed?.expiry_date)).toISOString()).toBe(expiryDate);
    expect(JSON.stringify(await sdk.models.apiKey.getAll())).not.toContain(key);
  });

  it('getAllNamedUserApiKeys lists the named keys of the current user', async () => {
    const name = `named-${uniqueSuffix()}`;
    await sdk.models.apiKey.create({ name, expiryDate: null, description: 'no expiry' });
    const named = await sdk.models.apiKey.getAllNamedUserApiKeys();
    const found = named.find((key) => key.name === name);
    expect(found).toMatchObject({ name, description: 'no expiry', expiry_date: null });
    expect(named.every((key) => key.name !== null)).toBe(true);
    expect(
      named.every(
        (key) => JSON.stringify(key.is_of__actor) === JSON.stringify({ __id: info.actor }),
      ),
    ).toBe(true);
  });

  it('update changes name and description, read back by getAll', async () => {
    const name = `before-${uniqueSuffix()}`;
    const key = await sdk.models.apiKey.create({
      name,
      expiryDate: inOneYear(),
      description: 'old',
    });
    const created = await findByName(name);
    if (!created) throw new Error('created key not listed');
    const newName = `after-${uniqueSuffix()}`;
    await sdk.models.apiKey.update(created.id, { name: newName, description: 'new' });
    const all = await sdk.models.apiKey.getAll();
    expect(all.find((k) => k.id === created.id)).toMatchObject({
      name: newName,
      description: 'new',
    });
    expect(all.find((k) => k.name === name)).toBeUndefined();
    // Renaming does not change the secret.
    expect(await (await sdkWithKey(key)).auth.isLoggedIn()).toBe(true);
  });

  it('revoke deletes the key: it no longer authenticates nor is listed', async () => {
    const name = `revoked-${uniqueSuffix()}`;
    const key = await sdk.models.apiKey.create({ name, expiryDate: inOneYear() });
    const created = await findByName(name);
    if (!created) throw new Error('created key not listed');
    expect(await (await sdkWithKey(key)).auth.isLoggedIn()).toBe(true);

    await sdk.models.apiKey.revoke(created.id);
    expect(await findByName(name)).toBeUndefined();
    const other = await sdkWithKey(key);
    expect(await other.auth.isLoggedIn()).toBe(false);
    expect(await other.auth.whoami()).toBeUndefined();
    // The owner's session is unaffected.
    expect(await sdk.auth.isLoggedIn()).toBe(true);
  });

  it('an expired key no longer authenticates', async () => {
    const name = `expired-${uniqueSuffix()}`;
    const key = await sdk.models.apiKey.create({ name, expiryDate: inOneYear() });
    const created = await findByName(name);
    if (!created) throw new Error('created key not listed');
    // Time travel: expire it in the database.
    await server.ctx.db.query(
      `UPDATE "api_key" SET "expiry_date" = now() - interval '1 minute' WHERE "id" = $1`,
      [created.id],
    );
    expect(await (await sdkWithKey(key)).auth.isLoggedIn()).toBe(false);
  });
});

// The re-authentication window, as balena-sdk meets it: apiKey.create with
// a session whose password is older than the window is a 401 that keeps the session; logging in
// again (authenticate) opens the window again.
describe('api keys: balena-sdk apiKey.create and the re-authentication window', () => {
  let server: TestServer;
  let clock: Date;

  beforeAll(async () => {
    clock = new Date();
    server = await startTestServer({ now: () => clock });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('asks for a fresh login once the window is over', async () => {
    const user = await registerUser(server.url, 'window');
    clock = new Date(clock.getTime() + reauthenticationWindowMs);
    // balena-sdk turns any failure of this call into BalenaNotLoggedIn ("You have to log in"),
    // as it does against balena; the server's 401 says why, and the session stays.
    await expectBalenaError(
      user.sdk.models.apiKey.create({ name: `late-${uniqueSuffix()}`, expiryDate: null }),
      'BalenaNotLoggedIn',
    );
    const direct = await fetch(`${server.url}/api-key/user/full`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await user.sdk.auth.getToken()}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: `late-${uniqueSuffix()}` }),
    });
    expect([direct.status, await direct.text()]).toEqual([401, freshAuthenticationRequiredMessage]);
    expect(await user.sdk.auth.isLoggedIn()).toBe(true);
    await user.sdk.auth.login({ email: user.email, password: user.password });
    expect(
      typeof (await user.sdk.models.apiKey.create({
        name: `fresh-${uniqueSuffix()}`,
        expiryDate: null,
      })),
    ).toBe('string');
  });
});

// Issue 7: a fleet's provisioning keys and its devices' keys are listed, renamed and revoked by the
// fleet roles holding resin.api_key.read/update/delete (safe-operator and up), through the SDK's
// own calls; other roles get nothing; a revoked key fails on its very next request.
describe("api keys: a fleet's provisioning and device keys", () => {
  let server: TestServer;
  let owner: BalenaSDK;
  let fleet: Awaited<ReturnType<typeof createFleet>>;
  const members = new Map<string, BalenaSDK>();

  const memberSdk = (label: string): BalenaSDK => {
    const sdk = members.get(label);
    if (!sdk) throw new Error(`no member ${label}`);
    return sdk;
  };

  const loggedIn = async (key: string): Promise<boolean> => {
    const sdk = newSdk(server.url);
    await sdk.auth.loginWithToken(key);
    return sdk.auth.isLoggedIn();
  };

  // A provisioning key and a device registered with it, with the device's own key.
  const fleetKeys = async () => {
    const keyName = `prov-${uniqueSuffix()}`;
    const provisioningKey = await owner.models.application.generateProvisioningKey({
      slugOrUuidOrId: fleet.id,
      keyExpiryDate: inOneYear(),
      keyName,
    });
    const uuid = owner.models.device.generateUniqueKey();
    const registration = await owner.models.device.register(fleet.id, uuid);
    return { keyName, provisioningKey, uuid, deviceKey: registration.api_key };
  };

  beforeAll(async () => {
    server = await startTestServer();
    owner = (await registerUser(server.url, 'fleetowner')).sdk;
    const org = await createOrganization(owner, 'Keys org');
    fleet = await createFleet(owner, org.id, 'keys');
    for (const role of ['developer', 'safe-operator', 'observer', 'stranger']) {
      const sdk = (await registerUser(server.url, role)).sdk;
      if (role !== 'stranger') {
        const { id } = await sdk.auth.getUserInfo();
        // Memberships are written directly: inviting has its own tests.
        await addOrganizationMember(server.ctx.db, id, org.id, 'member');
        await addFleetMember(server.ctx.db, id, fleet.id, role);
      }
      members.set(role, sdk);
    }
    members.set('administrator', owner);
  });

  afterAll(async () => {
    await server?.close();
  });

  it.each(['administrator', 'developer', 'safe-operator'])(
    'a fleet %s lists, renames and revokes them, and a revoked key fails at once',
    async (role) => {
      const sdk = memberSdk(role);
      const keys = await fleetKeys();
      const provisioning = await sdk.models.apiKey.getProvisioningApiKeysByApplication(fleet.id);
      const listed = provisioning.find((key) => key.name === keys.keyName);
      expect(listed).toBeDefined();
      expect(JSON.stringify(provisioning)).not.toContain(keys.provisioningKey);
      const deviceKeys = await sdk.models.apiKey.getDeviceApiKeysByDevice(keys.uuid);
      expect(deviceKeys).toHaveLength(1);
      expect(JSON.stringify(deviceKeys)).not.toContain(keys.deviceKey);

      await sdk.models.apiKey.update(listed?.id ?? 0, { name: 'renamed', description: 'by role' });
      expect(
        (await owner.models.apiKey.getProvisioningApiKeysByApplication(fleet.id)).find(
          (key) => key.id === listed?.id,
        ),
      ).toMatchObject({ name: 'renamed', description: 'by role' });

      // The device works until its key is revoked, and not one request longer.
      const stateUrl = `${server.url}/device/v3/${keys.uuid}/state`;
      const asDevice = { headers: { authorization: `Bearer ${keys.deviceKey}` } };
      expect((await fetch(stateUrl, asDevice)).status).toBe(200);
      await sdk.models.apiKey.revoke(deviceKeys[0]?.id ?? 0);
      expect((await fetch(stateUrl, asDevice)).status).toBe(401);
      expect(await loggedIn(keys.deviceKey)).toBe(false);
      expect(await sdk.models.apiKey.getDeviceApiKeysByDevice(keys.uuid)).toEqual([]);

      expect(await loggedIn(keys.provisioningKey)).toBe(true);
      await sdk.models.apiKey.revoke(listed?.id ?? 0);
      expect(await loggedIn(keys.provisioningKey)).toBe(false);
    },
  );

  it('an observer sees none of them and changes nothing', async () => {
    const sdk = memberSdk('observer');
    const keys = await fleetKeys();
    expect(await sdk.models.apiKey.getProvisioningApiKeysByApplication(fleet.id)).toEqual([]);
    expect(await sdk.models.apiKey.getDeviceApiKeysByDevice(keys.uuid)).toEqual([]);
    const [provisioning] = (
      await owner.models.apiKey.getProvisioningApiKeysByApplication(fleet.id)
    ).filter((key) => key.name === keys.keyName);
    const [device] = await owner.models.apiKey.getDeviceApiKeysByDevice(keys.uuid);
    for (const key of [provisioning, device]) {
      await sdk.models.apiKey.update(key?.id ?? 0, { name: 'observed' }).catch(() => undefined);
      await sdk.models.apiKey.revoke(key?.id ?? 0).catch(() => undefined);
    }
    expect(await loggedIn(keys.provisioningKey)).toBe(true);
    expect(await loggedIn(keys.deviceKey)).toBe(true);
    expect(
      (await owner.models.apiKey.getProvisioningApiKeysByApplication(fleet.id)).find(
        (key) => key.id === provisioning?.id,
      )?.name,
    ).toBe(keys.keyName);
  });

  it('a stranger cannot find the fleet, its device or their keys', async () => {
    const sdk = memberSdk('stranger');
    const keys = await fleetKeys();
    await expectBalenaError(
      sdk.models.apiKey.getProvisioningApiKeysByApplication(fleet.id),
      'BalenaApplicationNotFound',
    );
    await expectBalenaError(
      sdk.models.apiKey.getDeviceApiKeysByDevice(keys.uuid),
      'BalenaDeviceNotFound',
    );
    const [device] = await owner.models.apiKey.getDeviceApiKeysByDevice(keys.uuid);
    await sdk.models.apiKey.revoke(device?.id ?? 0).catch(() => undefined);
    expect(await loggedIn(keys.deviceKey)).toBe(true);
  });

  it('a provisioning key cannot take over a registered device (sibling impersonation)', async () => {
    const keys = await fleetKeys();
    const { id } = await owner.models.device.get(keys.uuid, { $select: 'id' });
    const stolen = `stolen${uniqueSuffix()}${uniqueSuffix()}`;
    const response = await fetch(`${server.url}/api-key/device/${id}/device-key`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${keys.provisioningKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ apiKey: stolen }),
    });
    expect(response.status).toBe(401);
    expect(await loggedIn(stolen)).toBe(false);
    expect(await owner.models.apiKey.getDeviceApiKeysByDevice(keys.uuid)).toHaveLength(1);
  });
});
