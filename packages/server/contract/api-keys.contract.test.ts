import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import { inOneYear, newSdk, registerUser, uniqueSuffix } from './contract-helpers.js';

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
