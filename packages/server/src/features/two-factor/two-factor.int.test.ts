import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { recoveryCodeCount, twoFactorErrors } from '@flotilla/shared/auth/two-factor';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import { rateLimitMessage } from '../../infra/rate-limit/rate-limiter.js';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { registerAuth } from '../auth/register-auth.js';
import { registerTwoFactor } from './register-two-factor.js';
import { twoFactorAccountLimitPerHour } from './two-factor-throttle.js';
import { totpCodeAt } from './totp.js';

let db: Database;
let app: FastifyInstance;
let clock: Date;

const tick = (ms: number): void => {
  clock = new Date(clock.getTime() + ms);
};

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const createAccount = async (username: string): Promise<void> => {
  await db.query(`INSERT INTO "user" ("username", "email", "password_hash") VALUES ($1, $2, $3)`, [
    username,
    `${username}@example.com`,
    await hashTestPassword(`${username}-password`),
  ]);
};

const login = async (username: string): Promise<string> => {
  const response = await app.inject({
    method: 'POST',
    url: '/login_',
    payload: { username, password: `${username}-password` },
  });
  expect(response.statusCode).toBe(200);
  return response.body;
};

const post = (url: string, token: string, payload: object = {}, remoteAddress = '127.0.0.1') =>
  app.inject({ method: 'POST', url, headers: bearer(token), payload, remoteAddress });

const setupKey = async (token: string): Promise<string> => {
  const response = await app.inject({ url: '/auth/totp/setup', headers: bearer(token) });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain/);
  return response.body;
};

const legacyWhoami = (token: string) =>
  app.inject({ url: '/user/v1/whoami', headers: bearer(token) });

// Logs in and enables two-factor; the answer is the secret and the enabled session's token.
const enable = async (username: string): Promise<{ secret: string; token: string }> => {
  const secret = await setupKey(await login(username));
  const session = await login(username);
  const response = await post('/auth/totp/verify', session, { code: totpCodeAt(secret, clock) });
  expect(response.statusCode, response.body).toBe(200);
  // The next code is of the next step: the one just used is spent.
  tick(30_000);
  return { secret, token: response.body };
};

beforeAll(async () => {
  db = await createTestDatabase();
  clock = new Date('2026-11-24T10:00:05Z');
  const ctx = createTestContext(db, { now: () => clock, config: { loginRateLimitPerMinute: 3 } });
  app = await createTestApp(ctx, registerAuth, registerTwoFactor);
  for (const name of ['ann', 'ben', 'cat', 'dan', 'eve', 'fay', 'gus']) await createAccount(name);
});

afterAll(async () => {
  await app.close();
  await db.close();
});

beforeEach(async () => {
  await db.query('DELETE FROM "rate_limit_hit"');
});

describe('enabling two-factor', () => {
  it('setup answers a bare base32 secret; the first right code enables it and ends other sessions', async () => {
    const session = await login('ann');
    const other = await login('ann');
    const secret = await setupKey(session);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // Not enabled until a code is verified: logins are not challenged yet.
    expect(decodeJwt(await login('ann'))).not.toHaveProperty('twoFactorRequired');

    const missing = await post('/auth/totp/verify', session, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toBe(twoFactorErrors.required.message);
    const wrong = await post('/auth/totp/verify', session, { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toBe(twoFactorErrors.invalid.message);

    const enabled = await post('/auth/totp/verify', session, { code: totpCodeAt(secret, clock) });
    expect(enabled.statusCode).toBe(200);
    expect(decodeJwt(enabled.body)).toMatchObject({ twoFactorRequired: false });
    expect((await legacyWhoami(enabled.body)).statusCode).toBe(200);
    // Sessions that never passed the second factor end, the calling one included.
    expect((await legacyWhoami(other)).statusCode).toBe(401);
    expect((await legacyWhoami(session)).statusCode).toBe(401);
    // An enabled secret is not replaced by a new setup.
    const again = await app.inject({ url: '/auth/totp/setup', headers: bearer(enabled.body) });
    expect(again.statusCode).toBe(409);
  });

  it('a new setup replaces a secret that never got its code', async () => {
    const session = await login('ben');
    const first = await setupKey(session);
    const second = await setupKey(session);
    expect(second).not.toBe(first);
    const stale = await post('/auth/totp/verify', session, { code: totpCodeAt(first, clock) });
    expect(stale.body).toBe(twoFactorErrors.invalid.message);
  });

  it('verify without a setup is a clear 400', async () => {
    const response = await post('/auth/totp/verify', await login('fay'), { code: '123456' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/not set up/);
  });
});

describe('the login challenge', () => {
  it('a login is pending until a code passes; a pending session may only pass it', async () => {
    const { secret } = await enable('cat');
    const pending = await login('cat');
    expect(decodeJwt(pending)).toMatchObject({ twoFactorRequired: true });
    expect((await legacyWhoami(pending)).statusCode).toBe(401);
    expect(
      (await app.inject({ url: '/auth/totp/setup', headers: bearer(pending) })).statusCode,
    ).toBe(401);
    expect((await post('/auth/v1/2fa-recover/create', pending)).statusCode).toBe(401);
    expect(
      (await post('/auth/totp/disable', pending, { password: 'cat-password' })).statusCode,
    ).toBe(401);
    // Refreshing keeps it pending.
    const refreshed = await app.inject({ url: '/user/v1/refresh-token', headers: bearer(pending) });
    expect(refreshed.statusCode).toBe(200);
    expect(decodeJwt(refreshed.body)).toMatchObject({ twoFactorRequired: true });

    const code = totpCodeAt(secret, clock);
    const passed = await post('/auth/totp/verify', pending, {
      code: ` ${code.slice(0, 3)} ${code.slice(3)}`,
    });
    expect(passed.statusCode, passed.body).toBe(200);
    const claims = decodeJwt(passed.body);
    expect(claims).toMatchObject({
      twoFactorRequired: false,
      authTime: decodeJwt(pending).authTime,
    });
    expect((await legacyWhoami(passed.body)).statusCode).toBe(200);
    // The code is spent: a second login cannot replay it within its window.
    const replay = await post('/auth/totp/verify', await login('cat'), { code });
    expect(replay.body).toBe(twoFactorErrors.invalid.message);
  });

  it('code attempts are rate-limited per account and address, and per account overall', async () => {
    const { secret } = await enable('dan');
    const pending = await login('dan');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await post('/auth/totp/verify', pending, { code: '000000' })).statusCode).toBe(400);
    }
    const limited = await post('/auth/totp/verify', pending, { code: totpCodeAt(secret, clock) });
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toBe(rateLimitMessage);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    tick(61_000);
    const passed = await post('/auth/totp/verify', pending, { code: totpCodeAt(secret, clock) });
    expect(passed.statusCode).toBe(200);

    // Spread over many addresses, the account's hourly ceiling still holds.
    await db.query('DELETE FROM "rate_limit_hit"');
    const next = await login('dan');
    for (let attempt = 0; attempt < twoFactorAccountLimitPerHour; attempt += 1) {
      const address = Math.floor(attempt / 3) + 1;
      const response = await post(
        '/auth/v1/2fa-recover/verify',
        next,
        { code: 'aaaaa-aaaaa' },
        `10.0.0.${address}`,
      );
      expect(response.statusCode).toBe(400);
    }
    // The minute buckets empty; the hour's does not.
    tick(91_000);
    const ceiling = await post(
      '/auth/totp/verify',
      next,
      { code: totpCodeAt(secret, clock) },
      '10.0.1.1',
    );
    expect(ceiling.statusCode).toBe(429);
  });
});

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('recovery codes', () => {
  it('are created once enabled, each passes a login once, and regenerating voids the old ones', async () => {
    const { token } = await enable('eve');
    const created = await post('/auth/v1/2fa-recover/create', token);
    expect(created.statusCode).toBe(200);
    const codes = created.json<string[]>();
    expect(codes).toHaveLength(recoveryCodeCount);
    expect(new Set(codes).size).toBe(recoveryCodeCount);
    const [first = '', second = ''] = codes;
    expect(first).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const pending = await login('eve');
    const passed = await post('/auth/v1/2fa-recover/verify', pending, {
      code: first.toUpperCase(),
    });
    expect(passed.statusCode, passed.body).toBe(200);
    expect(decodeJwt(passed.body)).toMatchObject({ twoFactorRequired: false });
    const reused = await post('/auth/v1/2fa-recover/verify', await login('eve'), { code: first });
    expect(reused.body).toBe(twoFactorErrors.invalid.message);

    const regenerated = await post('/auth/v1/2fa-recover/create', passed.body);
    expect(regenerated.json<string[]>()).not.toContain(second);
    const voided = await post('/auth/v1/2fa-recover/verify', await login('eve'), { code: second });
    expect(voided.body).toBe(twoFactorErrors.invalid.message);
  });

  it('are stored each with its own salt, and codes stored before salting still pass once', async () => {
    const { token } = await enable('gus');
    const codes = (await post('/auth/v1/2fa-recover/create', token)).json<string[]>();
    const { rows } = await db.query<{ code_hash: string; user: number }>(
      `SELECT "code_hash", "user" FROM "user_recovery_code"
        WHERE "user" = (SELECT "id" FROM "user" WHERE "username" = 'gus')`,
    );
    expect(rows).toHaveLength(recoveryCodeCount);
    const unsalted = new Set(codes.map((code) => sha256(code.replace('-', ''))));
    for (const row of rows) {
      expect(row.code_hash).toMatch(/^scrypt\$/);
      expect(unsalted.has(row.code_hash)).toBe(false);
    }
    const userId = rows[0]?.user ?? -1;
    await db.query('INSERT INTO "user_recovery_code" ("user", "code_hash") VALUES ($1, $2)', [
      userId,
      sha256('k3m9xq7v2p'),
    ]);
    const passed = await post('/auth/v1/2fa-recover/verify', await login('gus'), {
      code: 'k3m9x-q7v2p',
    });
    expect(passed.statusCode, passed.body).toBe(200);
    const reused = await post('/auth/v1/2fa-recover/verify', await login('gus'), {
      code: 'k3m9x-q7v2p',
    });
    expect(reused.body).toBe(twoFactorErrors.invalid.message);
  });

  it('creating them without two-factor is a clear 400', async () => {
    const response = await post('/auth/v1/2fa-recover/create', await login('fay'));
    expect(response.statusCode).toBe(400);
    expect(response.body).toBe('Two-factor authentication is not enabled');
  });
});

describe('disabling two-factor', () => {
  it('needs the password, then logins are no longer challenged', async () => {
    const { token } = await enable('ben');
    const codes = (await post('/auth/v1/2fa-recover/create', token)).json<string[]>();
    const wrong = await post('/auth/totp/disable', token, { password: 'not-it' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toBe('Invalid password');
    const missing = await post('/auth/totp/disable', token, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toMatch(/password is required/);

    const disabled = await post('/auth/totp/disable', token, { password: 'ben-password' });
    expect(disabled.statusCode).toBe(200);
    expect(decodeJwt(disabled.body)).not.toHaveProperty('twoFactorRequired');
    const session = await login('ben');
    expect(decodeJwt(session)).not.toHaveProperty('twoFactorRequired');
    // The recovery codes went with it.
    const recovery = await post('/auth/v1/2fa-recover/verify', session, { code: codes[0] });
    expect(recovery.body).toBe('Two-factor authentication is not enabled');
    expect(
      (await post('/auth/totp/disable', session, { password: 'ben-password' })).statusCode,
    ).toBe(400);
  });
});
