import {
  freshAuthenticationRequiredMessage,
  reauthenticationWindowMs,
} from '@flotilla/shared/auth/reauthentication';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Database } from '../../infra/db/database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { registerApiKeys } from '../api-keys/register-api-keys.js';
import { registerTwoFactor } from '../two-factor/register-two-factor.js';
import { registerAuth } from './register-auth.js';

// The re-authentication window: minting a user API key, setting up two-factor
// and regenerating recovery codes need a password given within it; refresh-token with the
// password renews it.
let db: Database;
let app: FastifyInstance;
let clock: Date;
let count = 0;

const tick = (ms: number): void => {
  clock = new Date(clock.getTime() + ms);
};

const send = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });

const signIn = async () => {
  count += 1;
  const email = `fresh${count}@example.com`;
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "user" ("username", "email", "password_hash", "is_verified")
     VALUES ($1, $2, $3, true) RETURNING "id"`,
    [`fresh${count}`, email, await hashTestPassword('the-password')],
  );
  const login = await app.inject({
    method: 'POST',
    url: '/login_',
    payload: { username: email, password: 'the-password' },
  });
  expect(login.statusCode).toBe(200);
  return { token: login.body, userId: rows[0]?.id ?? 0 };
};

const createUserKey = (token: string) => send('POST', '/api-key/user/full', token, { name: 'ci' });

const expectRefused = (response: { statusCode: number; body: string }): void => {
  expect([response.statusCode, response.body]).toEqual([401, freshAuthenticationRequiredMessage]);
};

beforeAll(async () => {
  db = await createTestDatabase();
  clock = new Date('2026-06-01T08:00:00Z');
  const ctx = createTestContext(db, { now: () => clock });
  app = await createTestApp(ctx, registerAuth, registerApiKeys, registerTwoFactor);
});

afterAll(async () => {
  await app.close();
  await db.close();
});

beforeEach(async () => {
  await db.query('DELETE FROM "rate_limit_hit"');
});

describe('the re-authentication window', () => {
  it('lets a user key be minted until the window ends, then asks for the password', async () => {
    const { token, userId } = await signIn();
    tick(reauthenticationWindowMs - 1000);
    expect((await createUserKey(token)).statusCode).toBe(200);
    tick(1000);
    expectRefused(await createUserKey(token));
    // balena-sdk's other way to a user key, and nothing minted meanwhile.
    expectRefused(
      await send('POST', '/api-key/v2/', token, {
        actorType: 'user',
        actorTypeId: userId,
        roles: ['named-user-api-key'],
        name: 'other',
      }),
    );
    const { rows } = await db.query(
      'SELECT 1 FROM "api_key" k JOIN "user" u ON u."actor" = k."is_of__actor" WHERE u."id" = $1',
      [userId],
    );
    expect(rows).toHaveLength(1);
  });

  it('is renewed by refresh-token with the password, not without it nor with a wrong one', async () => {
    const { token } = await signIn();
    tick(reauthenticationWindowMs);
    const plain = await send('GET', '/user/v1/refresh-token', token);
    expect(plain.statusCode).toBe(200);
    expectRefused(await createUserKey(plain.body));
    const wrong = await send('POST', '/user/v1/refresh-token', token, { password: 'not-it' });
    expect([wrong.statusCode, wrong.body]).toEqual([401, 'Invalid password']);
    const renewed = await send('POST', '/user/v1/refresh-token', token, {
      password: 'the-password',
    });
    expect(renewed.statusCode).toBe(200);
    expect(decodeJwt(renewed.body)).toMatchObject({ authTime: clock.getTime() });
    expect((await createUserKey(renewed.body)).statusCode).toBe(200);
    // The old token keeps its old authTime.
    expectRefused(await createUserKey(token));
  });

  it('never counts an API key as fresh', async () => {
    const { token } = await signIn();
    const key = String((await createUserKey(token)).json());
    expectRefused(await createUserKey(key));
  });

  it('guards the two-factor setup key and the regeneration of recovery codes', async () => {
    const { token } = await signIn();
    tick(reauthenticationWindowMs);
    expectRefused(await send('GET', '/auth/totp/setup', token));
    expectRefused(await send('POST', '/auth/v1/2fa-recover/create', token));
    const renewed = await send('POST', '/user/v1/refresh-token', token, {
      password: 'the-password',
    });
    expect((await send('GET', '/auth/totp/setup', renewed.body)).statusCode).toBe(200);
  });
});
