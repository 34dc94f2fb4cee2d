import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../infra/auth/api-key-tokens.js';
import type { Database } from '../../infra/db/database.js';
import {
  addFleetMember,
  addOrganizationMember,
  createDevice,
  createFleet,
  createOrganization,
  createUser,
  type DeviceFixture,
  type FleetFixture,
  type UserFixture,
} from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { registerAuth } from '../auth/register-auth.js';
import { registerApiKeys } from './register-api-keys.js';

let db: Database;
let app: FastifyInstance;
let clock: Date;
const tokens = new Map<string, string>();

let owner: UserFixture;
let operator: UserFixture;
let observer: UserFixture;
let stranger: UserFixture;
let fleet: FleetFixture;
let otherFleet: FleetFixture;
let device: DeviceFixture;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const sessionOf = (user: UserFixture): string => {
  const token = tokens.get(user.username);
  if (!token) throw new Error(`no session for ${user.username}`);
  return token;
};

const post = (url: string, token: string | undefined, payload: Record<string, unknown> = {}) =>
  app.inject({
    method: 'POST',
    url,
    payload,
    ...(token === undefined ? {} : { headers: bearer(token) }),
  });

const whoami = async (token: string) =>
  (await app.inject({ url: '/actor/v1/whoami', headers: bearer(token) })).json<
    Record<string, unknown>
  >();

const keyFrom = (response: { statusCode: number; body: string; json: () => unknown }): string => {
  expect(response.statusCode).toBe(200);
  const key = response.json();
  if (typeof key !== 'string') throw new Error(`not a key: ${response.body}`);
  return key;
};

beforeAll(async () => {
  db = await createTestDatabase();
  clock = new Date('2026-03-01T12:00:00Z');
  const ctx = createTestContext(db, { now: () => clock });
  app = await createTestApp(ctx, registerAuth, registerApiKeys);
  owner = await createUser(db, 'owner');
  operator = await createUser(db, 'operator');
  observer = await createUser(db, 'observer');
  stranger = await createUser(db, 'stranger');
  const organization = await createOrganization(db, 'acme');
  await addOrganizationMember(db, owner.userId, organization, 'administrator');
  await addOrganizationMember(db, operator.userId, organization, 'member');
  await addOrganizationMember(db, observer.userId, organization, 'member');
  fleet = await createFleet(db, organization, 'fleet');
  otherFleet = await createFleet(db, organization, 'other');
  await addFleetMember(db, operator.userId, fleet.id, 'safe-operator');
  await addFleetMember(db, observer.userId, fleet.id, 'observer');
  device = await createDevice(db, fleet.id, 'dev-1');
  for (const user of [owner, operator, observer, stranger]) {
    tokens.set(user.username, await issueSessionToken(ctx, db, user.userId));
  }
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('POST /api-key/user/full', () => {
  it('mints a named user key, answered as a JSON string, that acts as the user', async () => {
    const response = await post('/api-key/user/full', sessionOf(owner), {
      name: 'ci',
      description: 'for CI',
      expiryDate: '2030-01-01T00:00:00.000Z',
    });
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const key = keyFrom(response);
    expect(key).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(await whoami(key)).toEqual({
      id: owner.actorId,
      actorType: 'user',
      actorTypeId: owner.userId,
      username: 'owner',
      email: 'owner@example.com',
    });
    const { rows } = await db.query(
      'SELECT "name", "description", "key_prefix", "is_of__actor" FROM "api_key" WHERE "key_hash" = $1',
      [hashApiKey(key)],
    );
    expect(rows).toEqual([
      {
        name: 'ci',
        description: 'for CI',
        key_prefix: key.slice(0, 8),
        is_of__actor: owner.actorId,
      },
    ]);
  });

  it('requires a name and a future expiry date', async () => {
    const unnamed = await post('/api-key/user/full', sessionOf(owner), {});
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.body).toMatch(/^name: /);
    const past = await post('/api-key/user/full', sessionOf(owner), {
      name: 'old',
      expiryDate: '2020-01-01T00:00:00.000Z',
    });
    expect(past.statusCode).toBe(400);
    expect(past.body).toMatch(/^expiryDate: /);
    const garbage = await post('/api-key/user/full', sessionOf(owner), {
      name: 'bad',
      expiryDate: 'someday',
    });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.body).toMatch(/^expiryDate: Invalid date/);
  });

  it('answers 401 without a user', async () => {
    expect((await post('/api-key/user/full', undefined, { name: 'x' })).statusCode).toBe(401);
  });

  it('stops honouring a key once it expires', async () => {
    const key = keyFrom(
      await post('/api-key/user/full', sessionOf(owner), {
        name: 'short-lived',
        expiryDate: new Date(clock.getTime() + 60_000).toISOString(),
      }),
    );
    expect((await app.inject({ url: '/actor/v1/whoami', headers: bearer(key) })).statusCode).toBe(
      200,
    );
    clock = new Date(clock.getTime() + 61_000);
    expect((await app.inject({ url: '/actor/v1/whoami', headers: bearer(key) })).statusCode).toBe(
      401,
    );
  });
});

describe('provisioning keys', () => {
  const v2Body = (applicationId: number) => ({
    actorType: 'application',
    actorTypeId: applicationId,
    roles: ['provisioning-api-key'],
    name: 'prov',
    description: 'd',
    expiryDate: '2030-01-01T00:00:00.000Z',
  });

  it('lets an organization administrator mint one through /api-key/v2/', async () => {
    const key = keyFrom(await post('/api-key/v2/', sessionOf(owner), v2Body(fleet.id)));
    expect(await whoami(key)).toEqual({
      id: fleet.actorId,
      actorType: 'application',
      actorTypeId: fleet.id,
      slug: fleet.slug,
    });
  });

  it('lets a safe-operator mint one, through both routes', async () => {
    keyFrom(await post('/api-key/v2', sessionOf(operator), v2Body(fleet.id)));
    const key = keyFrom(
      await post(`/api-key/application/${fleet.id}/provisioning`, sessionOf(operator)),
    );
    expect(await whoami(key)).toMatchObject({ actorType: 'application', actorTypeId: fleet.id });
  });

  it('answers 401 to an observer, a stranger, and on fleets without a role', async () => {
    for (const [token, applicationId] of [
      [sessionOf(observer), fleet.id],
      [sessionOf(stranger), fleet.id],
      [sessionOf(operator), otherFleet.id],
      [sessionOf(owner), 999_999],
    ] as const) {
      expect((await post('/api-key/v2/', token, v2Body(applicationId))).statusCode).toBe(401);
      expect(
        (await post(`/api-key/application/${applicationId}/provisioning`, token)).statusCode,
      ).toBe(401);
    }
  });

  it('validates the v2 body', async () => {
    const wrongRole = await post('/api-key/v2/', sessionOf(owner), {
      ...v2Body(fleet.id),
      roles: ['named-user-api-key'],
    });
    expect(wrongRole.statusCode).toBe(400);
    expect(wrongRole.body).toMatch(/^roles: /);
    const badId = await post('/api-key/application/abc/provisioning', sessionOf(owner));
    expect(badId.statusCode).toBe(400);
    expect(badId.body).toMatch(/^id: /);
  });
});

describe('POST /api-key/device/:deviceId/device-key', () => {
  it('lets a user who may update the fleet devices mint a device key', async () => {
    const key = keyFrom(
      await post(`/api-key/device/${device.id}/device-key`, sessionOf(operator), {
        name: 'k',
        description: 'd',
        expiryDate: '2030-01-01T00:00:00.000Z',
      }),
    );
    expect(await whoami(key)).toEqual({
      id: device.actorId,
      actorType: 'device',
      actorTypeId: device.id,
      uuid: device.uuid,
    });
  });

  it('refuses observers and strangers', async () => {
    for (const user of [observer, stranger]) {
      const response = await post(`/api-key/device/${device.id}/device-key`, sessionOf(user));
      expect(response.statusCode).toBe(401);
    }
    expect((await post('/api-key/device/999999/device-key', sessionOf(owner))).statusCode).toBe(
      401,
    );
  });

  const keysOf = async (deviceActorId: number): Promise<number> => {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM "api_key" WHERE "is_of__actor" = $1',
      [deviceActorId],
    );
    return rows[0]?.n ?? -1;
  };
  const provisioningKeyOf = async (applicationId: number): Promise<string> =>
    keyFrom(await post(`/api-key/application/${applicationId}/provisioning`, sessionOf(owner)));
  const newKey = (fill: string): string => fill.repeat(32);

  it("completes balena-supervisor's key exchange for a device of its fleet with no key", async () => {
    const provisioningKey = await provisioningKeyOf(fleet.id);
    const fresh = await createDevice(db, fleet.id, 'keyless');
    const deviceKey = '0123456789abcdef0123456789abcdef';
    const exchange = await post(`/api-key/device/${fresh.id}/device-key`, provisioningKey, {
      apiKey: deviceKey,
    });
    expect(exchange.statusCode).toBe(200);
    expect(exchange.json()).toBe(deviceKey);
    expect(await whoami(deviceKey)).toMatchObject({ actorType: 'device', actorTypeId: fresh.id });
    // A retried exchange of the same key succeeds and adds nothing.
    const retried = await post(`/api-key/device/${fresh.id}/device-key`, provisioningKey, {
      apiKey: deviceKey,
    });
    expect(retried.statusCode).toBe(200);
    expect(await keysOf(fresh.actorId)).toBe(1);
  });

  it('refuses a provisioning key a key for a device that has one (sibling impersonation)', async () => {
    const provisioningKey = await provisioningKeyOf(fleet.id);
    const sibling = await createDevice(db, fleet.id, 'sibling');
    const siblingKey = keyFrom(
      await post(`/api-key/device/${sibling.id}/device-key`, sessionOf(owner)),
    );
    const attempts = [
      post(`/api-key/device/${sibling.id}/device-key`, provisioningKey, { apiKey: newKey('s') }),
      post(`/api-key/device/${sibling.id}/device-key`, provisioningKey),
      post('/api-key/v2/', provisioningKey, {
        actorType: 'device',
        actorTypeId: sibling.id,
        roles: ['device-api-key'],
      }),
    ];
    for (const response of await Promise.all(attempts)) expect(response.statusCode).toBe(401);
    expect(
      (await app.inject({ url: '/actor/v1/whoami', headers: bearer(newKey('s')) })).statusCode,
    ).toBe(401);
    expect(await keysOf(sibling.actorId)).toBe(1);
    expect(await whoami(siblingKey)).toMatchObject({ actorTypeId: sibling.id });
  });

  it('never lets a provisioning key mint a key of its own choosing, even for a keyless device', async () => {
    const provisioningKey = await provisioningKeyOf(fleet.id);
    const fresh = await createDevice(db, fleet.id, 'keyless-2');
    for (const response of [
      await post(`/api-key/device/${fresh.id}/device-key`, provisioningKey),
      await post('/api-key/v1', provisioningKey, {
        actorType: 'device',
        actorTypeId: fresh.id,
        roles: ['device-api-key'],
      }),
    ]) {
      expect(response.statusCode).toBe(401);
    }
    expect(await keysOf(fresh.actorId)).toBe(0);
  });

  it('lets exactly one of two concurrent exchanges for one device win', async () => {
    const provisioningKey = await provisioningKeyOf(fleet.id);
    const fresh = await createDevice(db, fleet.id, 'raced');
    const [first, second] = await Promise.all(
      [newKey('a'), newKey('b')].map((apiKey) =>
        post(`/api-key/device/${fresh.id}/device-key`, provisioningKey, { apiKey }),
      ),
    );
    expect([first?.statusCode, second?.statusCode].sort()).toEqual([200, 401]);
    expect(await keysOf(fresh.actorId)).toBe(1);
  });

  it('does not let a device key mint keys, for itself or a sibling', async () => {
    const provisioningKey = await provisioningKeyOf(fleet.id);
    const fresh = await createDevice(db, fleet.id, 'self-minting');
    const deviceKey = newKey('d');
    keyFrom(
      await post(`/api-key/device/${fresh.id}/device-key`, provisioningKey, { apiKey: deviceKey }),
    );
    const keyless = await createDevice(db, fleet.id, 'keyless-3');
    for (const [id, body] of [
      [fresh.id, {}],
      [keyless.id, {}],
      [keyless.id, { apiKey: newKey('e') }],
    ] as const) {
      expect((await post(`/api-key/device/${id}/device-key`, deviceKey, body)).statusCode).toBe(
        401,
      );
    }
    expect(await keysOf(fresh.actorId)).toBe(1);
    expect(await keysOf(keyless.actorId)).toBe(0);
  });

  it("refuses another fleet's provisioning key and a key already owned elsewhere", async () => {
    const foreignKey = await provisioningKeyOf(otherFleet.id);
    const fresh = await createDevice(db, fleet.id, 'keyless-4');
    expect(
      (await post(`/api-key/device/${fresh.id}/device-key`, foreignKey, { apiKey: newKey('f') }))
        .statusCode,
    ).toBe(401);
    expect(await keysOf(fresh.actorId)).toBe(0);
    const owned = keyFrom(await post(`/api-key/device/${device.id}/device-key`, sessionOf(owner)));
    const taken = await post(`/api-key/device/${fresh.id}/device-key`, sessionOf(owner), {
      apiKey: owned,
    });
    expect(taken.statusCode).toBe(409);
    const malformed = await post(`/api-key/device/${device.id}/device-key`, sessionOf(owner), {
      apiKey: 'has spaces in it!',
    });
    expect(malformed.statusCode).toBe(400);
  });
});
