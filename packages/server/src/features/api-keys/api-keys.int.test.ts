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

  it('registers the key a device agent exchanges with its provisioning key', async () => {
    const provisioningKey = keyFrom(
      await post(`/api-key/application/${fleet.id}/provisioning`, sessionOf(owner)),
    );
    const deviceKey = '0123456789abcdef0123456789abcdef';
    const exchange = await post(`/api-key/device/${device.id}/device-key`, provisioningKey, {
      apiKey: deviceKey,
    });
    expect(exchange.statusCode).toBe(200);
    expect(exchange.json()).toBe(deviceKey);
    expect(await whoami(deviceKey)).toMatchObject({ actorType: 'device', actorTypeId: device.id });
    // A retried exchange succeeds; the device's own key may also mint keys for itself.
    expect(
      (
        await post(`/api-key/device/${device.id}/device-key`, provisioningKey, {
          apiKey: deviceKey,
        })
      ).statusCode,
    ).toBe(200);
    keyFrom(await post(`/api-key/device/${device.id}/device-key`, deviceKey));
  });

  it("refuses another fleet's provisioning key and a key already owned elsewhere", async () => {
    const foreignKey = keyFrom(
      await post(`/api-key/application/${otherFleet.id}/provisioning`, sessionOf(owner)),
    );
    expect(
      (
        await post(`/api-key/device/${device.id}/device-key`, foreignKey, {
          apiKey: 'a'.repeat(32),
        })
      ).statusCode,
    ).toBe(401);
    const otherDevice = await createDevice(db, fleet.id, 'dev-2');
    const taken = await post(`/api-key/device/${otherDevice.id}/device-key`, sessionOf(owner), {
      apiKey: '0123456789abcdef0123456789abcdef',
    });
    expect(taken.statusCode).toBe(409);
    const malformed = await post(`/api-key/device/${device.id}/device-key`, sessionOf(owner), {
      apiKey: 'has spaces in it!',
    });
    expect(malformed.statusCode).toBe(400);
  });
});
