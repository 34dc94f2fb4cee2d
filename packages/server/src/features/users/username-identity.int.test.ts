import { usernameRuleText } from '@flotilla/shared/users/username';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../infra/db/database.js';
import { registerODataRoutes } from '../../infra/odata/register-odata-routes.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { registerAuth } from '../auth/register-auth.js';
import { registerMembershipHooks } from '../memberships/membership-hooks.js';
import { registerUserHooks } from './user-hooks.js';

// Usernames are one identity whatever their case, on every write path (issue "Identity").
let db: Database;
let ctx: AppContext;
let app: FastifyInstance;

type Account = { id: number; token: string; password: string };

const signUp = async (email: string, username: string): Promise<Account> => {
  const password = `${username}-password`;
  const response = await app.inject({
    method: 'POST',
    url: '/user/register',
    payload: { email, password, username },
  });
  expect(response.statusCode, response.body).toBe(200);
  return { id: Number(decodeJwt(response.body).id), token: response.body, password };
};

const login = (username: string, password: string) =>
  app.inject({ method: 'POST', url: '/login_', payload: { username, password } });

const rename = (account: Account, username: string) =>
  app.inject({
    method: 'PATCH',
    url: `/v7/user(${account.id})`,
    headers: { authorization: `Bearer ${account.token}` },
    payload: { username },
  });

const usernameOf = async (id: number): Promise<string | undefined> =>
  (await db.query<{ username: string }>('SELECT "username" FROM "user" WHERE "id" = $1', [id]))
    .rows[0]?.username;

let alice: Account;
let mallory: Account;

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = createTestContext(db, {
    config: {
      loginRateLimitPerMinute: 100,
      loginAddressRateLimitPerMinute: 100,
      signupRateLimitPerHour: 100,
    },
  });
  registerMembershipHooks(ctx.hooks);
  registerUserHooks(ctx.hooks);
  app = await createTestApp(ctx, registerAuth, registerODataRoutes);
  alice = await signUp('alice@example.com', 'alice');
  mallory = await signUp('mallory@example.com', 'mallory');
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('PATCH /v7/user username', () => {
  it("refuses another user's username in any case, so the victim keeps logging in", async () => {
    for (const variant of ['ALICE', 'Alice', 'alice']) {
      const response = await rename(mallory, variant);
      expect(response.statusCode, variant).toBe(409);
      expect(response.body).toBe('"username" must be unique.');
    }
    expect(await usernameOf(mallory.id)).toBe('mallory');
    for (const typed of ['alice', 'ALICE', 'Alice']) {
      const response = await login(typed, alice.password);
      expect(response.statusCode, typed).toBe(200);
      expect(decodeJwt(response.body).id).toBe(alice.id);
    }
  });

  it('creates a membership "by username" for the owner of the name, whatever its case', async () => {
    await rename(mallory, 'Alice');
    const organization = await fx.createOrganization(db, 'Owners');
    await fx.addOrganizationMember(db, mallory.id, organization, 'administrator');
    const fleet = await fx.createFleet(db, organization, 'Shared');
    for (const typed of ['ALICE', 'alice']) {
      await db.query('DELETE FROM "user_application_membership"');
      const created = await app.inject({
        method: 'POST',
        url: '/v7/user_application_membership',
        headers: { authorization: `Bearer ${mallory.token}` },
        payload: {
          username: typed,
          is_member_of__application: fleet.id,
          application_membership_role: 1,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).toMatchObject({ user: { __id: alice.id } });
    }
  });

  it('applies the sign-up rule', async () => {
    for (const invalid of ['ab', 'no spaces', 'at@sign', 'x'.repeat(31)]) {
      const response = await rename(mallory, invalid);
      expect(response.statusCode, invalid).toBe(400);
      expect(response.body).toBe(usernameRuleText);
    }
    expect(await usernameOf(mallory.id)).toBe('mallory');
  });

  it('lets a user change their own name, also only its case', async () => {
    expect((await rename(mallory, 'Mallory')).statusCode).toBe(200);
    expect(await usernameOf(mallory.id)).toBe('Mallory');
    expect((await rename(mallory, 'mallory_2')).statusCode).toBe(200);
    const response = await login('MALLORY_2', mallory.password);
    expect(decodeJwt(response.body).id).toBe(mallory.id);
  });

  it('gives one of two racing case variants the name and the other a 409', async () => {
    const bob = await signUp('bob@example.com', 'bob_racer');
    const carol = await signUp('carol@example.com', 'carol_racer');
    const [first, second] = await Promise.all([rename(bob, 'Taken'), rename(carol, 'TAKEN')]);
    expect([first?.statusCode, second?.statusCode].sort()).toEqual([200, 409]);
    expect([first?.body, second?.body]).toContain('"username" must be unique.');
    const { rows } = await db.query(`SELECT 1 FROM "user" WHERE lower("username") = 'taken'`);
    expect(rows).toHaveLength(1);
  });
});

describe('sign-up usernames', () => {
  it('refuses a case variant of a taken username with 409 "unique"', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/user/register',
      payload: { email: 'imposter@example.com', password: 'long enough', username: 'ALICE' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.body).toMatch(/unique/);
  });

  it('derives only names that follow the rule, even from a short e-mail', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/user/register',
      payload: { email: 'x@example.org', password: 'long enough' },
    });
    expect(await usernameOf(Number(decodeJwt(response.body).id))).toBe('x_1');
  });

  it('is refused by the database for any writer that skips the checks', async () => {
    await expect(
      db.query(`UPDATE "user" SET "username" = 'aLiCe' WHERE "id" = $1`, [mallory.id]),
    ).rejects.toMatchObject({ code: '23505' });
  });
});
