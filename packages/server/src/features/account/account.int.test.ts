import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import {
  freshAuthenticationRequiredMessage,
  reauthenticationWindowMs,
} from '@flotilla/shared/auth/reauthentication';
import type { AppContext } from '../../app-context.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { registerAuth } from '../auth/register-auth.js';
import { registerAccount } from './register-account.js';

let db: Database;
let app: FastifyInstance;
let clock: Date;
let ctx: AppContext;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const createAccount = async (username: string, password: string | null): Promise<number> => {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "user" ("username", "email", "password_hash") VALUES ($1, $2, $3) RETURNING "id"`,
    [
      username,
      `${username}@example.com`,
      password === null ? null : await hashTestPassword(password),
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('no user');
  return id;
};

const login = async (username: string, password: string): Promise<string> => {
  const response = await app.inject({
    method: 'POST',
    url: '/login_',
    payload: { username, password },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.body;
};

const patch = (url: string, token: string, payload: object) =>
  app.inject({ method: 'PATCH', url, headers: bearer(token), payload });

const whoami = (token: string) => app.inject({ url: '/user/v1/whoami', headers: bearer(token) });

beforeAll(async () => {
  db = await createTestDatabase();
  clock = new Date('2026-11-24T10:00:00Z');
  ctx = createTestContext(db, { now: () => clock });
  app = await createTestApp(ctx, registerAuth, registerAccount);
  await createAccount('ann', 'ann-password');
  await createAccount('ben', 'ben-password');
});

afterAll(async () => {
  await app.close();
  await db.close();
});

beforeEach(async () => {
  await db.query('DELETE FROM "rate_limit_hit"');
});

describe('PATCH /user/password', () => {
  it('checks the current password, then ends every other session and answers a new token', async () => {
    const session = await login('ann', 'ann-password');
    const other = await login('ann', 'ann-password');
    const wrong = await patch('/user/password', session, {
      currentPassword: 'not-it',
      password: 'a-new-password',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toBe('Invalid password');
    const missing = await patch('/user/password', session, { password: 'a-new-password' });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toBe('currentPassword is required');
    const short = await patch('/user/password', session, {
      currentPassword: 'ann-password',
      password: 'short',
    });
    expect(short.statusCode).toBe(400);
    expect(short.body).toBe('Password must be at least 8 characters');
    expect((await whoami(other)).statusCode).toBe(200);

    clock = new Date(clock.getTime() + 60_000);
    const changed = await patch('/user/password', session, {
      currentPassword: 'ann-password',
      password: 'a-new-password',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(decodeJwt(changed.body)).toMatchObject({ authTime: clock.getTime() });
    expect((await whoami(changed.body)).statusCode).toBe(200);
    expect((await whoami(other)).statusCode).toBe(401);
    expect((await whoami(session)).statusCode).toBe(401);
    await login('ann', 'a-new-password');
    const old = await app.inject({
      method: 'POST',
      url: '/login_',
      payload: { username: 'ann', password: 'ann-password' },
    });
    expect(old.statusCode).toBe(401);
  });

  it('an account without a password sets one after a recent sign-in through its provider', async () => {
    // A password-less account (social sign-in), with sessions issued as the server does.
    const userId = await createAccount('cat', null);
    const stale = await issueSessionToken(ctx, db, userId, {
      authTime: clock.getTime() - reauthenticationWindowMs,
    });
    const refused = await patch('/user/password', stale, { password: 'cat-password' });
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toContain(freshAuthenticationRequiredMessage);
    const none = await app.inject({
      method: 'POST',
      url: '/login_',
      payload: { username: 'cat', password: 'cat-password' },
    });
    expect(none.statusCode).toBe(401);
    const session = await issueSessionToken(ctx, db, userId, { authTime: clock.getTime() });
    const set = await patch('/user/password', session, { password: 'cat-password' });
    expect(set.statusCode, set.body).toBe(200);
    await login('cat', 'cat-password');
  });
});

describe('POST /logout-others', () => {
  it('ends every other session and keeps the calling one with a new token', async () => {
    await createAccount('dot', 'dot-password');
    const session = await login('dot', 'dot-password');
    const other = await login('dot', 'dot-password');
    const response = await app.inject({
      method: 'POST',
      url: '/logout-others',
      headers: bearer(session),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(decodeJwt(response.body).authTime).toBe(decodeJwt(session).authTime);
    expect((await whoami(response.body)).statusCode).toBe(200);
    expect((await whoami(other)).statusCode).toBe(401);
    expect((await whoami(session)).statusCode).toBe(401);
  });
});

describe('PATCH /user/profile', () => {
  it('stores the required fields and the newsletter choice, and answers them', async () => {
    const session = await login('ben', 'ben-password');
    const response = await patch('/user/profile', session, {
      first_name: ' Ben ',
      last_name: 'Okri',
      company: 'Famished Road',
      account_type: 'professional',
      has_disabled_newsletter: true,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      first_name: 'Ben',
      last_name: 'Okri',
      company: 'Famished Road',
      account_type: 'professional',
      has_disabled_newsletter: true,
    });
    const cleared = await patch('/user/profile', session, {
      first_name: 'Ben',
      last_name: 'Okri',
      company: 'Famished Road',
      account_type: null,
    });
    expect(cleared.json()).toMatchObject({ account_type: null, has_disabled_newsletter: true });
  });

  it('refuses missing or empty required fields and unknown account types, writing nothing', async () => {
    const session = await login('ben', 'ben-password');
    const cases: [object, RegExp][] = [
      [{ last_name: 'Okri', company: 'x', account_type: null }, /first_name is required/],
      [
        { first_name: 'B', last_name: ' ', company: 'x', account_type: null },
        /Last name is required/,
      ],
      [{ first_name: 'B', last_name: 'O', company: 'x' }, /account_type/],
      [{ first_name: 'B', last_name: 'O', company: 'x', account_type: 'business' }, /account_type/],
    ];
    for (const [payload, message] of cases) {
      const response = await patch('/user/profile', session, payload);
      expect(response.statusCode).toBe(400);
      expect(response.body).toMatch(message);
    }
    const { rows } = await db.query<{ first_name: string }>(
      `SELECT "first_name" FROM "user" WHERE "username" = 'ben'`,
    );
    expect(rows[0]?.first_name).toBe('Ben');
  });
});
