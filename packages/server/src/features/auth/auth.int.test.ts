import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { issueSessionToken } from './issue-session-token.js';
import { registerAuth } from './register-auth.js';

let db: Database;
let ctx: AppContext;
let app: FastifyInstance;
let clock: Date;

const tick = (ms: number): void => {
  clock = new Date(clock.getTime() + ms);
};

const createAccount = async (username: string, password: string): Promise<number> => {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "user" ("username", "email", "password_hash") VALUES ($1, $2, $3) RETURNING "id"`,
    [username, `${username}@example.com`, await hashTestPassword(password)],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('no user');
  return id;
};

const login = (username: string, password: string) =>
  app.inject({ method: 'POST', url: '/login_', payload: { username, password } });

const tokenFor = async (username: string, password: string): Promise<string> => {
  const response = await login(username, password);
  expect(response.statusCode).toBe(200);
  return response.body;
};

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  db = await createTestDatabase();
  clock = new Date('2026-03-01T12:00:00Z');
  ctx = createTestContext(db, { now: () => clock, config: { loginRateLimitPerMinute: 3 } });
  app = await createTestApp(ctx, registerAuth);
  await createAccount('alice', 'alice-password');
});

afterAll(async () => {
  await app.close();
  await db.close();
});

beforeEach(async () => {
  await db.query('DELETE FROM "rate_limit_hit"');
});

describe('POST /login_', () => {
  it('answers a text/plain session token for the e-mail or the username', async () => {
    const byEmail = await login('ALICE@example.com', 'alice-password');
    expect(byEmail.statusCode).toBe(200);
    expect(byEmail.headers['content-type']).toMatch(/^text\/plain/);
    const claims = decodeJwt(byEmail.body);
    expect(claims).toMatchObject({ authTime: clock.getTime(), permissions: [] });
    expect(claims.exp).toBe(Math.floor(clock.getTime() / 1000) + 36 * 3600);
    expect(claims).not.toHaveProperty('twoFactorRequired');
    expect((await login('alice', 'alice-password')).statusCode).toBe(200);
  });

  it('answers 401 "Invalid login credentials" on any failure', async () => {
    for (const response of [
      await login('alice', 'wrong-password'),
      await login('nobody@example.com', 'whatever'),
      await app.inject({ method: 'POST', url: '/login_', payload: { username: 'alice' } }),
      await app.inject({ method: 'POST', url: '/login_', payload: 'not json' }),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(response.body).toBe('Invalid login credentials');
    }
  });

  it('limits failed attempts per username with 429 and Retry-After', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      tick(10_000);
      expect((await login('Alice', 'wrong')).statusCode).toBe(401);
    }
    tick(5_000);
    const limited = await login('alice', 'alice-password');
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toBe('Too Many Requests. Try again later');
    // The oldest of the three failures was 25 s ago: it leaves the window in 35 s.
    expect(limited.headers['retry-after']).toBe('35');
    // Other usernames are unaffected.
    expect((await login('someone-else', 'x')).statusCode).toBe(401);
    tick(35_000);
    expect((await login('alice', 'alice-password')).statusCode).toBe(200);
  });

  it('counts failures in the database, shared by every server process', async () => {
    const other = await createTestApp(
      createTestContext(db, { now: () => clock, config: { loginRateLimitPerMinute: 3 } }),
      registerAuth,
    );
    try {
      await login('alice', 'wrong');
      await other.inject({
        method: 'POST',
        url: '/login_',
        payload: { username: 'alice', password: 'x' },
      });
      await login('alice', 'wrong');
      expect((await login('alice', 'alice-password')).statusCode).toBe(429);
    } finally {
      await other.close();
    }
  });
});

describe('whoami', () => {
  it('describes a user session', async () => {
    const token = await tokenFor('alice', 'alice-password');
    const { rows } = await db.query<{ id: number; actor: number }>(
      `SELECT "id", "actor" FROM "user" WHERE "username" = 'alice'`,
    );
    const response = await app.inject({ url: '/actor/v1/whoami', headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: rows[0]?.actor,
      actorType: 'user',
      actorTypeId: rows[0]?.id,
      username: 'alice',
      email: 'alice@example.com',
    });
    const legacy = await app.inject({ url: '/user/v1/whoami', headers: bearer(token) });
    expect(legacy.json()).toEqual({
      id: rows[0]?.id,
      username: 'alice',
      email: 'alice@example.com',
    });
  });

  it('answers 401 without a token or with a bad one', async () => {
    expect((await app.inject({ url: '/actor/v1/whoami' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/user/v1/whoami' })).statusCode).toBe(401);
    const garbage = await app.inject({
      url: '/actor/v1/whoami',
      headers: bearer('nonsense-key-0123456789'),
    });
    expect(garbage.statusCode).toBe(401);
  });
});

describe('session lifetime', () => {
  it('rejects an expired token', async () => {
    const token = await tokenFor('alice', 'alice-password');
    tick(36 * 3600 * 1000 + 1000);
    const response = await app.inject({ url: '/actor/v1/whoami', headers: bearer(token) });
    expect(response.statusCode).toBe(401);
  });

  it('revokes every session when the jwt_secret rotates', async () => {
    const token = await tokenFor('alice', 'alice-password');
    expect((await app.inject({ url: '/actor/v1/whoami', headers: bearer(token) })).statusCode).toBe(
      200,
    );
    await db.query(
      `UPDATE "user" SET "jwt_secret" = md5(random()::text) WHERE "username" = 'alice'`,
    );
    expect((await app.inject({ url: '/actor/v1/whoami', headers: bearer(token) })).statusCode).toBe(
      401,
    );
    expect((await login('alice', 'alice-password')).statusCode).toBe(200);
  });

  it('refreshes with a new iat and the same authTime', async () => {
    const token = await tokenFor('alice', 'alice-password');
    const before = decodeJwt(token);
    tick(25 * 3600 * 1000);
    const response = await app.inject({ url: '/user/v1/refresh-token', headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const after = decodeJwt(response.body);
    expect(after.iat).toBe(Number(before.iat) + 25 * 3600);
    expect(after.authTime).toBe(before.authTime);
    expect(after.id).toBe(before.id);
    // The refreshed token outlives the original.
    tick(12 * 3600 * 1000);
    expect(
      (await app.inject({ url: '/actor/v1/whoami', headers: bearer(response.body) })).statusCode,
    ).toBe(200);
    expect((await app.inject({ url: '/actor/v1/whoami', headers: bearer(token) })).statusCode).toBe(
      401,
    );
  });

  it('renews authTime when POST refresh carries the right password', async () => {
    const token = await tokenFor('alice', 'alice-password');
    tick(60_000);
    const wrong = await app.inject({
      method: 'POST',
      url: '/user/v1/refresh-token',
      headers: bearer(token),
      payload: { password: 'nope' },
    });
    expect(wrong.statusCode).toBe(401);
    const right = await app.inject({
      method: 'POST',
      url: '/user/v1/refresh-token',
      headers: bearer(token),
      payload: { password: 'alice-password' },
    });
    expect(right.statusCode).toBe(200);
    expect(decodeJwt(right.body).authTime).toBe(clock.getTime());
    const plain = await app.inject({
      method: 'POST',
      url: '/user/v1/refresh-token',
      headers: bearer(token),
    });
    expect(decodeJwt(plain.body).authTime).toBe(decodeJwt(token).authTime);
  });

  it('refuses to refresh without a session', async () => {
    expect((await app.inject({ url: '/user/v1/refresh-token' })).statusCode).toBe(401);
  });

  it('lets a session with a pending second factor learn who it is, and nothing more', async () => {
    const { rows } = await db.query<{ id: number }>(
      `SELECT "id" FROM "user" WHERE "username" = 'alice'`,
    );
    const pending = await issueSessionToken(ctx, db, rows[0]?.id ?? 0, {
      twoFactorRequired: true,
    });
    expect(decodeJwt(pending).twoFactorRequired).toBe(true);
    const actor = await app.inject({ url: '/actor/v1/whoami', headers: bearer(pending) });
    expect(actor.statusCode).toBe(200);
    expect(
      (await app.inject({ url: '/user/v1/whoami', headers: bearer(pending) })).statusCode,
    ).toBe(401);
    // Refreshing keeps the challenge pending.
    const refreshed = await app.inject({ url: '/user/v1/refresh-token', headers: bearer(pending) });
    expect(decodeJwt(refreshed.body).twoFactorRequired).toBe(true);
  });
});

describe('POST /user/register', () => {
  const register = (payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/user/register', payload });

  it('creates the user, a personal organization it administers, and answers a token', async () => {
    const response = await register({ email: 'New.Person+x@Example.org', password: 'long enough' });
    expect(response.statusCode).toBe(200);
    const claims = decodeJwt(response.body);
    const whoami = await app.inject({ url: '/actor/v1/whoami', headers: bearer(response.body) });
    expect(whoami.json()).toMatchObject({
      actorType: 'user',
      actorTypeId: claims.id,
      username: 'new_person_x',
      email: 'New.Person+x@Example.org',
    });
    const { rows } = await db.query<{ handle: string; role: string }>(
      `SELECT o."handle", r."name" AS "role"
         FROM "organization_membership" m
         JOIN "organization" o ON o."id" = m."is_member_of__organization"
         JOIN "organization_membership_role" r ON r."id" = m."organization_membership_role"
        WHERE m."user" = $1`,
      [Number(claims.id)],
    );
    expect(rows).toEqual([{ handle: 'new_person_x', role: 'administrator' }]);
    expect((await login('new.person+x@example.org', 'long enough')).statusCode).toBe(200);
  });

  it('makes derived usernames unique', async () => {
    await register({ email: 'twin@one.example', password: 'long enough' });
    const second = await register({ email: 'twin@two.example', password: 'long enough' });
    const whoami = await app.inject({ url: '/actor/v1/whoami', headers: bearer(second.body) });
    expect(whoami.json()).toMatchObject({ username: 'twin_1' });
  });

  it('answers 400 naming the problem', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ email: 'not-an-email', password: 'long enough' }, /^email: Invalid e-mail address$/],
      [{ password: 'long enough' }, /^email: /],
      [
        { email: 'a@b.example', password: 'short' },
        /^password: Password must be at least 8 characters$/,
      ],
      [
        { email: 'a@b.example', password: 'x'.repeat(65) },
        /^password: Password must be at most 64 characters$/,
      ],
      [{ email: 'a@b.example', password: 'long enough', username: 'no spaces' }, /^username: /],
    ];
    for (const [payload, message] of cases) {
      const response = await register(payload);
      expect(response.statusCode).toBe(400);
      expect(response.body).toMatch(message);
    }
  });

  it('answers 409 "unique" when the e-mail is taken, whatever its case', async () => {
    await register({ email: 'dup@example.com', password: 'long enough' });
    const again = await register({ email: 'DUP@example.com', password: 'long enough' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toMatch(/unique/i);
    const taken = await register({
      email: 'fresh@example.com',
      password: 'long enough',
      username: 'alice',
    });
    expect(taken.statusCode).toBe(409);
  });

  it('asks the captcha verifier', async () => {
    const strict = await createTestApp(ctx, (instance, context) =>
      registerAuth(instance, context, {
        captcha: { verify: async (response) => response === 'ok' },
      }),
    );
    try {
      const refused = await strict.inject({
        method: 'POST',
        url: '/user/register',
        payload: { email: 'bot@example.com', password: 'long enough' },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toBe('Invalid captcha response');
      const accepted = await strict.inject({
        method: 'POST',
        url: '/user/register',
        payload: {
          email: 'human@example.com',
          password: 'long enough',
          'g-recaptcha-response': 'ok',
        },
      });
      expect(accepted.statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });
});
