import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSessionToken } from '../../features/auth/issue-session-token.js';
import {
  addFleetMember,
  createDevice,
  createFleet,
  createOrganization,
  createUser,
  type UserFixture,
} from '../../test-support/fixtures.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { type Database, openDatabase, type SqlValue } from '../db/database.js';
import { registerODataRoutes } from '../odata/register-odata-routes.js';
import type { Actor } from './actor.js';
import { actorCacheOf } from './actor-resolution.js';
import type { AppliedInvalidation } from './actor-cache-feed.js';
import { generateApiKey, hashApiKey } from './api-key-tokens.js';

// Two processes on one database, as in production: A and B each have their own pool, app, cache
// and LISTEN connection. Every change is made through A's pool (so B hears of it only through
// PostgreSQL); B must stop serving what it cached as soon as the notification arrives. Tests wait
// for that notification, never for time.

const ttlSeconds = 10;
const deviceTtlSeconds = 60;
let clock = new Date('2026-03-01T12:00:00Z');
const now = () => clock;

let dbA: Database;
let dbB: Database;
let appA: FastifyInstance;
let appB: FastifyInstance;
let queriesOnB = 0;
let jwtSecret: Uint8Array;

const actorRoute = (app: FastifyInstance): void => {
  app.get('/test/actor', { config: { access: 'public' } }, async (request) => request.actor);
};

const ask = async (app: FastifyInstance, token: string): Promise<Actor | number> => {
  const response = await app.inject({
    url: '/test/actor',
    headers: { authorization: `Bearer ${token}` },
  });
  return response.statusCode === 200 ? response.json<Actor>() : response.statusCode;
};

const cacheOfB = () => {
  const attached = actorCacheOf(appB);
  if (!attached) throw new Error('B has no actor cache');
  return attached;
};

// Resolves when B has applied a notification naming the subject.
const heardOnB = (subject: string): Promise<void> =>
  new Promise((resolve) => {
    const stop = cacheOfB().feed.onApplied(({ subjects, source }: AppliedInvalidation) => {
      if (source !== 'notification' || !subjects.includes(subject)) return;
      stop();
      resolve();
    });
  });

// Asks B, and checks B now holds the answer in its cache.
const primeOnB = async (token: string): Promise<Actor> => {
  const actor = await ask(appB, token);
  if (typeof actor === 'number') throw new Error(`B refused the token: ${actor}`);
  expect(cacheOfB().cache.lookup(token, clock)).toEqual(actor);
  return actor;
};

// Runs a change through A's pool and waits until B has heard all of it: a barrier notification
// sent after the change arrives after everything the change reported (commit order), so no late
// invalidation can disturb what the test does next.
let barriers = 0;
const changeOnA = async (
  subject: string,
  sql: string,
  params: readonly SqlValue[] = [],
): Promise<void> => {
  const heard: string[] = [];
  const stop = cacheOfB().feed.onApplied(({ subjects, source }) => {
    if (source === 'notification') heard.push(...subjects);
  });
  const barrier = `actor:${2_000_000_000 + (barriers += 1)}`;
  const passed = heardOnB(barrier);
  await dbA.query(sql, params);
  await dbA.query(`SELECT pg_notify('flotilla_auth', $1)`, [barrier]);
  await passed;
  stop();
  expect(heard).toContain(subject);
};

const keyFor = async (actorId: number, expiry: Date | null = null): Promise<string> => {
  const key = generateApiKey();
  await dbA.query(
    'INSERT INTO "api_key" ("is_of__actor", "key_hash", "expiry_date") VALUES ($1, $2, $3)',
    [actorId, hashApiKey(key), expiry],
  );
  return key;
};

const sessionFor = (user: UserFixture) => issueSessionToken({ jwtSecret, now }, dbA, user.userId);

let organization: number;
let users = 0;
const newUser = () => createUser(dbA, `cache_user_${(users += 1)}`);

const cacheConfig = { authCacheSeconds: ttlSeconds, deviceAuthCacheSeconds: deviceTtlSeconds };

beforeAll(async () => {
  dbA = await createTestDatabase();
  const poolB = openDatabase(dbA.url, { max: 3 });
  dbB = {
    ...poolB,
    query: (sql, params) => {
      queriesOnB += 1;
      return poolB.query(sql, params);
    },
  };
  const ctxA = createTestContext(dbA, { now, config: cacheConfig });
  jwtSecret = ctxA.jwtSecret;
  const ctxB = createTestContext(dbB, { now, jwtSecret, config: cacheConfig });
  appA = await createTestApp(ctxA, registerODataRoutes, actorRoute);
  appB = await createTestApp(ctxB, registerODataRoutes, actorRoute);
  organization = await createOrganization(dbA, 'cacheorg');
});

afterAll(async () => {
  await appB.close();
  await appA.close();
  await dbB.close();
  await dbA.close();
});

describe('actor cache', () => {
  it('answers a repeated token without the database, and asks again after the TTL', async () => {
    const user = await newUser();
    const token = await sessionFor(user);
    await primeOnB(token);
    const before = queriesOnB;
    expect(await ask(appB, token)).toMatchObject({ kind: 'user', userId: user.userId });
    expect(queriesOnB).toBe(before);
    clock = new Date(clock.getTime() + ttlSeconds * 1000);
    expect(await ask(appB, token)).toMatchObject({ kind: 'user', userId: user.userId });
    expect(queriesOnB).toBe(before + 1);
  });

  it("keeps a device key past the users' TTL, until its own", async () => {
    const fleet = await createFleet(dbA, organization, 'device-ttl');
    const device = await createDevice(dbA, fleet.id, 'long-lived');
    const key = await keyFor(device.actorId);
    await primeOnB(key);
    const before = queriesOnB;
    clock = new Date(clock.getTime() + ttlSeconds * 1000);
    expect(await ask(appB, key)).toMatchObject({ kind: 'device', deviceId: device.id });
    expect(queriesOnB).toBe(before);
    clock = new Date(clock.getTime() + (deviceTtlSeconds - ttlSeconds) * 1000);
    expect(await ask(appB, key)).toMatchObject({ kind: 'device', deviceId: device.id });
    expect(queriesOnB).toBe(before + 1);
  });

  it('honours an API key expiry and a session exp at use, by the clock', async () => {
    const user = await newUser();
    const key = await keyFor(user.actorId, new Date(clock.getTime() + 2_000));
    await primeOnB(key);
    const session = await sessionFor(user);
    await primeOnB(session);
    clock = new Date(clock.getTime() + 2_000);
    expect(await ask(appB, key)).toBe(401);
    // The session lives 36 hours: move past it in TTL-sized steps, keeping it cached meanwhile.
    const exp = clock.getTime() - 2_000 + 36 * 3600 * 1000;
    clock = new Date(exp - 1);
    await primeOnB(session);
    clock = new Date(exp);
    expect(await ask(appB, session)).toBe(401);
  });
});

describe('changes on another process (through PostgreSQL notifications)', () => {
  it('a rotated jwt_secret ends the sessions', async () => {
    const user = await newUser();
    const session = await sessionFor(user);
    await primeOnB(session);
    await changeOnA(
      `user:${user.userId}`,
      `UPDATE "user" SET "jwt_secret" = 'rotated' || "jwt_secret" WHERE "id" = $1`,
      [user.userId],
    );
    expect(await ask(appB, session)).toBe(401);
  });

  it("a deleted user's sessions and API keys stop", async () => {
    const user = await newUser();
    const session = await sessionFor(user);
    const key = await keyFor(user.actorId);
    await primeOnB(session);
    await primeOnB(key);
    await changeOnA(`user:${user.userId}`, 'DELETE FROM "user" WHERE "id" = $1', [user.userId]);
    expect(await ask(appB, session)).toBe(401);
    expect(await ask(appB, key)).toBe(401);
  });

  it("a revoked OAuth authorization ends the application's tokens, and only those", async () => {
    const user = await newUser();
    const { rows: applications } = await dbA.query<{ id: number }>(
      `INSERT INTO "oauth_application" ("client_id", "name", "redirect_uri")
       VALUES ($1, 'App', 'https://app.example/') RETURNING "id"`,
      [`client-${user.userId}`],
    );
    const { rows: authorizations } = await dbA.query<{ id: number }>(
      `INSERT INTO "oauth_application_authorization" ("belongs_to__user", "is_for__oauth_application")
       VALUES ($1, $2) RETURNING "id"`,
      [user.userId, applications[0]?.id ?? 0],
    );
    const authorization = authorizations[0]?.id ?? 0;
    const token = await issueSessionToken({ jwtSecret, now }, dbA, user.userId, {
      oauthAuthorization: authorization,
    });
    const session = await sessionFor(user);
    expect(await primeOnB(token)).toMatchObject({ oauthAuthorizationId: authorization });
    await primeOnB(session);
    await changeOnA(
      `user:${user.userId}`,
      'DELETE FROM "oauth_application_authorization" WHERE "id" = $1',
      [authorization],
    );
    expect(await ask(appB, token)).toBe(401);
    expect(await ask(appB, session)).toMatchObject({ userId: user.userId });
  });

  it('granted and removed platform roles show at once', async () => {
    const user = await newUser();
    const session = await sessionFor(user);
    const key = await keyFor(user.actorId);
    expect(await primeOnB(session)).toMatchObject({ platformPermissions: [] });
    expect(await primeOnB(key)).toMatchObject({ platformPermissions: [] });
    await changeOnA(
      `user:${user.userId}`,
      `INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, 'support_agent')`,
      [user.userId],
    );
    expect(await primeOnB(session)).toMatchObject({ platformPermissions: ['support.home'] });
    expect(await primeOnB(key)).toMatchObject({ platformPermissions: ['support.home'] });
    await changeOnA(`user:${user.userId}`, 'DELETE FROM "user_platform_role" WHERE "user" = $1', [
      user.userId,
    ]);
    expect(await ask(appB, session)).toMatchObject({ platformPermissions: [] });
    expect(await ask(appB, key)).toMatchObject({ platformPermissions: [] });
  });

  it('revoked user, device and provisioning keys stop', async () => {
    const user = await newUser();
    const fleet = await createFleet(dbA, organization, 'revoked');
    const device = await createDevice(dbA, fleet.id, 'revoked-device');
    const owners = [user.actorId, device.actorId, fleet.actorId];
    const keys = await Promise.all(owners.map((owner) => keyFor(owner)));
    const kept = await keyFor(device.actorId);
    for (const key of [...keys, kept]) await primeOnB(key);
    for (const [index, key] of keys.entries()) {
      await changeOnA(
        `actor:${owners[index] ?? 0}`,
        'DELETE FROM "api_key" WHERE "key_hash" = $1',
        [hashApiKey(key)],
      );
      expect(await ask(appB, key)).toBe(401);
    }
    // Another key of the same device still works (and is simply read again).
    expect(await ask(appB, kept)).toMatchObject({ kind: 'device', deviceId: device.id });
  });

  it('an expiry moved into the past stops a key', async () => {
    const fleet = await createFleet(dbA, organization, 'expiring');
    const key = await keyFor(fleet.actorId, new Date(clock.getTime() + 3600_000));
    await primeOnB(key);
    await changeOnA(
      `actor:${fleet.actorId}`,
      'UPDATE "api_key" SET "expiry_date" = $2 WHERE "key_hash" = $1',
      [hashApiKey(key), new Date(clock.getTime() - 1000).toISOString()],
    );
    expect(await ask(appB, key)).toBe(401);
  });

  it('a device moved to another fleet is that fleet’s device at once', async () => {
    const from = await createFleet(dbA, organization, 'movefrom');
    const to = await createFleet(dbA, organization, 'moveto');
    const device = await createDevice(dbA, from.id, 'mover');
    const key = await keyFor(device.actorId);
    expect(await primeOnB(key)).toMatchObject({ applicationId: from.id });
    await changeOnA(
      `actor:${device.actorId}`,
      'UPDATE "device" SET "belongs_to__application" = $2 WHERE "id" = $1',
      [device.id, to.id],
    );
    expect(await primeOnB(key)).toMatchObject({ kind: 'device', applicationId: to.id });
  });

  it("a deleted device's key and a deleted fleet's keys stop", async () => {
    const fleet = await createFleet(dbA, organization, 'deleted');
    const device = await createDevice(dbA, fleet.id, 'deleted-device');
    const other = await createDevice(dbA, fleet.id, 'other-device');
    const deviceKey = await keyFor(device.actorId);
    const otherKey = await keyFor(other.actorId);
    const provisioningKey = await keyFor(fleet.actorId);
    for (const key of [deviceKey, otherKey, provisioningKey]) await primeOnB(key);
    await changeOnA(`actor:${device.actorId}`, 'DELETE FROM "device" WHERE "id" = $1', [device.id]);
    expect(await ask(appB, deviceKey)).toBe(401);
    expect(cacheOfB().cache.lookup(otherKey, clock)).toBeDefined();
    await changeOnA(`actor:${fleet.actorId}`, 'DELETE FROM "application" WHERE "id" = $1', [
      fleet.id,
    ]);
    expect(await ask(appB, provisioningKey)).toBe(401);
    expect(await ask(appB, otherKey)).toBe(401);
  });

  it('a removed fleet membership stops at once: fleet roles are never cached', async () => {
    const user = await newUser();
    const fleet = await createFleet(dbA, organization, 'membership');
    const membership = await addFleetMember(dbA, user.userId, fleet.id, 'developer');
    const session = await sessionFor(user);
    await primeOnB(session);
    const fleetsSeen = async () =>
      (
        await appB.inject({
          url: '/v7/application?$select=id',
          headers: { authorization: `Bearer ${session}` },
        })
      ).json<{ d: { id: number }[] }>().d;
    expect(await fleetsSeen()).toEqual([{ id: fleet.id }]);
    await dbA.query('DELETE FROM "user_application_membership" WHERE "id" = $1', [membership]);
    // No waiting: the permission filter reads memberships in the request's own statement.
    expect(await fleetsSeen()).toEqual([]);
  });

  it('device writes that keep the fleet report nothing (heartbeats stay free)', async () => {
    const fleet = await createFleet(dbA, organization, 'quiet');
    const device = await createDevice(dbA, fleet.id, 'quiet-device');
    const notices: string[] = [];
    const stop = dbA.onNotice((notice) => notices.push(notice.detail ?? ''));
    await dbA.query(
      `UPDATE "device" SET "last_contact_at" = now(), "note" = 'x', "device_name" = 'renamed' WHERE "id" = $1`,
      [device.id],
    );
    await dbA.query('UPDATE "api_key" SET "name" = $2 WHERE "is_of__actor" = $1', [
      device.actorId,
      'renamed',
    ]);
    stop();
    expect(notices).toEqual([]);
  });

  it('TRUNCATE drops everything', async () => {
    const user = await newUser();
    const key = await keyFor(user.actorId);
    const session = await sessionFor(user);
    await primeOnB(key);
    await primeOnB(session);
    await changeOnA('*', 'TRUNCATE "api_key"');
    expect(await ask(appB, key)).toBe(401);
    expect(cacheOfB().cache.size()).toBe(0);
  });
});
