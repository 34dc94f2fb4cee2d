import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import { expectBalenaError, failureOf, registerUser, uniqueSuffix } from './contract-helpers.js';

describe('organizations: balena-sdk organization model against Flotilla', () => {
  let server: TestServer;
  let sdk: BalenaSDK;
  let userId: number;

  beforeAll(async () => {
    server = await startTestServer();
    const user = await registerUser(server.url, 'orgs');
    sdk = user.sdk;
    userId = (await sdk.auth.getUserInfo()).id;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('create answers with the new organization: id, the given name and a derived handle', async () => {
    const name = `Contract Org ${uniqueSuffix()}`;
    const created = await sdk.models.organization.create({ name });
    expect(Number.isInteger(created.id)).toBe(true);
    expect(created.name).toBe(name);
    expect(created.handle).toMatch(/^[a-z0-9_]+$/);
    // The handle is derived from the name (lower-cased, separators collapsed).
    expect(created.handle.startsWith('contract_org_')).toBe(true);
  });

  it('create keeps an explicit handle, and a taken handle is a 409 conflict', async () => {
    const handle = `explicit_${uniqueSuffix()}`;
    const created = await sdk.models.organization.create({ name: 'Explicit handle', handle });
    expect(created.handle).toBe(handle);
    const error = await failureOf(sdk.models.organization.create({ name: 'Second', handle }));
    expect(error.statusCode).toBe(409);
    expect(error.message).toMatch(/unique/i);
  });

  it('getAll lists the new organization with its id, name and handle', async () => {
    const created = await sdk.models.organization.create({ name: `Listed ${uniqueSuffix()}` });
    const all = await sdk.models.organization.getAll();
    const found = all.find((org) => org.id === created.id);
    expect(found).toMatchObject({ id: created.id, name: created.name, handle: created.handle });
  });

  it('get by handle and get by id return the same organization', async () => {
    const created = await sdk.models.organization.create({ name: `Fetched ${uniqueSuffix()}` });
    const byHandle = await sdk.models.organization.get(created.handle);
    const byId = await sdk.models.organization.get(created.id);
    expect(byHandle).toMatchObject({ id: created.id, name: created.name, handle: created.handle });
    expect(byId).toEqual(byHandle);
    const selected = await sdk.models.organization.get(created.handle, { $select: 'id' });
    expect(selected).toEqual({ id: created.id });
  });

  it('the creator is a member of the new organization', async () => {
    const created = await sdk.models.organization.create({ name: `Members ${uniqueSuffix()}` });
    const memberships = await sdk.models.organization.membership.getAllByOrganization(
      created.handle,
    );
    expect(memberships).toHaveLength(1);
    expect(memberships[0]?.user).toEqual({ __id: userId });
    expect(memberships[0]?.is_member_of__organization).toEqual({ __id: created.id });
  });

  it('an unknown handle or id is BalenaOrganizationNotFound', async () => {
    await expectBalenaError(
      sdk.models.organization.get(`missing_${uniqueSuffix()}`),
      'BalenaOrganizationNotFound',
    );
    await expectBalenaError(sdk.models.organization.get(987654321), 'BalenaOrganizationNotFound');
  });

  it('remove by handle deletes it: get fails and getAll no longer lists it', async () => {
    const created = await sdk.models.organization.create({ name: `Removed ${uniqueSuffix()}` });
    await sdk.models.organization.remove(created.handle);
    await expectBalenaError(
      sdk.models.organization.get(created.handle),
      'BalenaOrganizationNotFound',
    );
    await expectBalenaError(sdk.models.organization.get(created.id), 'BalenaOrganizationNotFound');
    const all = await sdk.models.organization.getAll();
    expect(all.map((org) => org.id)).not.toContain(created.id);
  });

  it('remove by id deletes only that organization', async () => {
    const kept = await sdk.models.organization.create({ name: `Kept ${uniqueSuffix()}` });
    const removed = await sdk.models.organization.create({ name: `Gone ${uniqueSuffix()}` });
    await sdk.models.organization.remove(removed.id);
    await expectBalenaError(sdk.models.organization.get(removed.id), 'BalenaOrganizationNotFound');
    expect((await sdk.models.organization.get(kept.id)).handle).toBe(kept.handle);
  });
});
