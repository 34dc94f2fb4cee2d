import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { apiKeyPrefix, generateApiKey, hashApiKey } from '../../infra/auth/api-key-tokens.js';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Database } from '../../infra/db/database.js';
import {
  addOrganizationMember,
  createDevice,
  createFleet,
  createOrganization,
  createUser,
} from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { registerAuth } from '../auth/register-auth.js';
import { registerAccountDeletion } from './delete-account.js';

let db: Database;
let ctx: AppContext;
let app: FastifyInstance;
let count = 0;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

// A user with a password, logged in.
const person = async () => {
  count += 1;
  const user = await createUser(db, `person${count}`);
  await db.query('UPDATE "user" SET "password_hash" = $2 WHERE "id" = $1', [
    user.userId,
    await hashTestPassword('the-password'),
  ]);
  const login = await app.inject({
    method: 'POST',
    url: '/login_',
    payload: { username: user.username, password: 'the-password' },
  });
  expect(login.statusCode).toBe(200);
  return { ...user, token: login.body };
};

const exists = async (table: string, id: number): Promise<boolean> =>
  (await db.query(`SELECT 1 FROM "${table}" WHERE "id" = $1`, [id])).rows.length === 1;

const deleteAccount = (token: string, payload: object) =>
  app.inject({
    method: 'POST',
    url: '/user/v1/delete-account',
    headers: bearer(token),
    payload,
  });

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = createTestContext(db);
  app = await createTestApp(ctx, registerAuth, registerAccountDeletion);
});

afterAll(async () => {
  await app.close();
  await db.close();
});

beforeEach(async () => {
  await db.query('DELETE FROM "rate_limit_hit"');
});

describe("deleting one's account", () => {
  it('deletes the organizations administered alone with their fleets, and nothing else', async () => {
    const ada = await person();
    const bob = await person();
    const own = await createOrganization(db, `Own${count}`);
    await addOrganizationMember(db, ada.userId, own, 'administrator');
    // Administered alone, though another person is a member: deleted.
    const withMember = await createOrganization(db, `WithMember${count}`);
    await addOrganizationMember(db, ada.userId, withMember, 'administrator');
    await addOrganizationMember(db, bob.userId, withMember, 'member');
    // Another administrator: kept, only the membership goes.
    const shared = await createOrganization(db, `Shared${count}`);
    await addOrganizationMember(db, ada.userId, shared, 'administrator');
    await addOrganizationMember(db, bob.userId, shared, 'administrator');
    // Merely a member: kept.
    const bobs = await createOrganization(db, `Bobs${count}`);
    await addOrganizationMember(db, bob.userId, bobs, 'administrator');
    await addOrganizationMember(db, ada.userId, bobs, 'member');
    const ownFleet = await createFleet(db, own, 'garden');
    const device = await createDevice(db, ownFleet.id, 'sensor');
    const sharedFleet = await createFleet(db, shared, 'kept');

    const preview = await app.inject({
      url: '/user/v1/delete-account',
      headers: bearer(ada.token),
    });
    expect(preview.json()).toEqual({
      organizations: [
        { id: own, name: `Own${count}` },
        { id: withMember, name: `WithMember${count}` },
      ],
    });

    const response = await deleteAccount(ada.token, { password: 'the-password' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      deletedOrganizations: [`Own${count}`, `WithMember${count}`],
    });
    expect(await exists('user', ada.userId)).toBe(false);
    expect(await exists('organization', own)).toBe(false);
    expect(await exists('organization', withMember)).toBe(false);
    expect(await exists('application', ownFleet.id)).toBe(false);
    expect(await exists('device', device.id)).toBe(false);
    expect(await exists('organization', shared)).toBe(true);
    expect(await exists('application', sharedFleet.id)).toBe(true);
    expect(await exists('organization', bobs)).toBe(true);
    expect(await exists('user', bob.userId)).toBe(true);
  });

  it('ends every session and API key of the user', async () => {
    const ada = await person();
    const key = generateApiKey();
    await db.query(
      `INSERT INTO "api_key" ("is_of__actor", "name", "key_hash", "key_prefix") VALUES ($1, 'ci', $2, $3)`,
      [ada.actorId, hashApiKey(key), apiKeyPrefix(key)],
    );
    for (const credential of [ada.token, key]) {
      expect(
        (await app.inject({ url: '/user/v1/whoami', headers: bearer(credential) })).statusCode,
      ).toBe(200);
    }
    expect((await deleteAccount(ada.token, { password: 'the-password' })).statusCode).toBe(200);
    await ctx.notifications.sync();
    for (const credential of [ada.token, key]) {
      expect(
        (await app.inject({ url: '/user/v1/whoami', headers: bearer(credential) })).statusCode,
      ).toBe(401);
    }
  });

  it('asks for the right password, and deletes nothing without it', async () => {
    const ada = await person();
    const own = await createOrganization(db, `Kept${count}`);
    await addOrganizationMember(db, ada.userId, own, 'administrator');
    const wrong = await deleteAccount(ada.token, { password: 'wrong-password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toBe('Invalid password');
    const missing = await deleteAccount(ada.token, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toBe('password: password is required');
    expect(await exists('user', ada.userId)).toBe(true);
    expect(await exists('organization', own)).toBe(true);
  });
});
