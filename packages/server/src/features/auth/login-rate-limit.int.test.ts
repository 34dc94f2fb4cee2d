import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Config } from '../../infra/config/config.js';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { registerAuth } from './register-auth.js';

// The login limits (docs/API-LIMITS.md): per account and client address, a higher ceiling per
// account, one per client address; atomic, and shared by e-mail and username.
let db: Database;
let clock: Date;
let app: FastifyInstance;
let aliceId: number;

const limits: Partial<Config> = {
  loginRateLimitPerMinute: 3,
  loginAccountRateLimitPerMinute: 6,
  loginAddressRateLimitPerMinute: 8,
};

const tick = (ms: number): void => {
  clock = new Date(clock.getTime() + ms);
};

const contextWith = (config: Partial<Config> = {}): AppContext =>
  createTestContext(db, { now: () => clock, config: { ...limits, ...config } });

const attacker = '198.51.100.66';
const owner = '203.0.113.10';

const loginOn = (
  server: FastifyInstance,
  username: string,
  password: string,
  remoteAddress: string,
  headers: Record<string, string> = {},
) =>
  server.inject({
    method: 'POST',
    url: '/login_',
    payload: { username, password },
    remoteAddress,
    headers,
  });

const login = (username: string, password: string, remoteAddress = attacker) =>
  loginOn(app, username, password, remoteAddress);

const statuses = (responses: { statusCode: number }[]): Record<number, number> => {
  const counts: Record<number, number> = {};
  for (const { statusCode } of responses) counts[statusCode] = (counts[statusCode] ?? 0) + 1;
  return counts;
};

beforeAll(async () => {
  db = await createTestDatabase();
  clock = new Date('2026-03-01T12:00:00Z');
  app = await createTestApp(contextWith(), registerAuth);
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "user" ("username", "email", "password_hash") VALUES ('alice', 'alice@example.com', $1)
     RETURNING "id"`,
    [await hashTestPassword('alice-password')],
  );
  aliceId = rows[0]?.id ?? 0;
});

afterAll(async () => {
  await app.close();
  await db.close();
});

beforeEach(async () => {
  await db.query('DELETE FROM "rate_limit_hit"');
  tick(3_600_000);
});

describe('login rate limit', () => {
  it('checks no more passwords than the limit when 60 wrong attempts arrive at once', async () => {
    const responses = await Promise.all(Array.from({ length: 60 }, () => login('alice', 'wrong')));
    // A 401 is only answered after the password was checked.
    expect(statuses(responses)).toEqual({ 401: 3, 429: 57 });
  });

  it('counts the e-mail and the username in one bucket, also when they race', async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        login(index % 2 === 0 ? 'ALICE@example.com' : 'Alice', 'wrong'),
      ),
    );
    expect(statuses(responses)).toEqual({ 401: 3, 429: 27 });
    expect((await login('alice@example.com', 'alice-password')).statusCode).toBe(429);
  });

  it('gives a name that is no account its own bucket, answering alike', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await login('ghost', 'wrong')).statusCode).toBe(401);
    }
    const limited = await login('GHOST', 'wrong');
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toBe('Too Many Requests. Try again later');
    expect(limited.headers['retry-after']).toBe('60');
    expect((await login('alice', 'alice-password')).statusCode).toBe(200);
  });

  it('does not lock the owner out from another address', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) await login('alice', 'wrong');
    const flood = await Promise.all(Array.from({ length: 20 }, () => login('alice', 'wrong')));
    expect(statuses(flood)).toEqual({ 429: 20 });
    const ownerLogin = await login('alice', 'alice-password', owner);
    expect(ownerLogin.statusCode).toBe(200);
    expect(decodeJwt(ownerLogin.body).id).toBe(aliceId);
  });

  it('stops at the per-account ceiling for attacks from many addresses, for one window only', async () => {
    for (const address of ['198.51.100.1', '198.51.100.2']) {
      for (let attempt = 0; attempt < 3; attempt += 1) await login('alice', 'wrong', address);
    }
    const refused = await login('alice', 'alice-password', owner);
    expect(refused.statusCode).toBe(429);
    // Refused attempts are not counted: hammering on does not move the window.
    for (const address of ['198.51.100.3', '198.51.100.4']) {
      expect((await login('alice', 'wrong', address)).statusCode).toBe(429);
    }
    tick(60_000);
    expect((await login('alice', 'alice-password', owner)).statusCode).toBe(200);
  });

  it('limits failures per client address over every account', async () => {
    // 8 failures for 8 different names from one address.
    for (let index = 0; index < 8; index += 1) {
      expect((await login(`name${index}`, 'wrong')).statusCode).toBe(401);
    }
    expect((await login('alice', 'alice-password')).statusCode).toBe(429);
    expect((await login('alice', 'alice-password', owner)).statusCode).toBe(200);
  });

  it("uncounts a successful login and the owner's earlier failures from that address", async () => {
    await login('alice', 'wrong', owner);
    await login('alice', 'wrong', owner);
    expect((await login('alice', 'alice-password', owner)).statusCode).toBe(200);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await login('alice', 'wrong', owner)).statusCode).toBe(401);
    }
    expect((await login('alice', 'wrong', owner)).statusCode).toBe(429);
  });

  it('counts IPv6 clients per /64 network', async () => {
    for (const suffix of ['1', '2', '3']) {
      expect((await login('alice', 'wrong', `2001:db8:5:6::${suffix}`)).statusCode).toBe(401);
    }
    expect((await login('alice', 'alice-password', '2001:db8:5:6::99')).statusCode).toBe(429);
    expect((await login('alice', 'alice-password', '2001:db8:5:7::1')).statusCode).toBe(200);
  });
});

describe('passwords given to POST /user/v1/refresh-token', () => {
  it("count in the account's login buckets", async () => {
    const token = (await login('alice', 'alice-password', owner)).body;
    const refresh = (password: string) =>
      app.inject({
        method: 'POST',
        url: '/user/v1/refresh-token',
        headers: { authorization: `Bearer ${token}` },
        payload: { password },
        remoteAddress: attacker,
      });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await refresh('guess')).statusCode).toBe(401);
    }
    expect((await refresh('alice-password')).statusCode).toBe(429);
    expect((await login('alice', 'alice-password')).statusCode).toBe(429);
    expect((await login('alice', 'alice-password', owner)).statusCode).toBe(200);
  });
});

describe('client address behind a proxy (FLOTILLA_TRUST_PROXY)', () => {
  const proxy = '10.0.0.2';

  it('ignores X-Forwarded-For by default', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await loginOn(app, 'alice', 'wrong', proxy, {
        'x-forwarded-for': `192.0.2.${attempt}`,
      });
      expect(response.statusCode).toBe(401);
    }
    const rotated = await loginOn(app, 'alice', 'wrong', proxy, {
      'x-forwarded-for': '192.0.2.99',
    });
    expect(rotated.statusCode).toBe(429);
  });

  it('takes the address the trusted proxy saw, not what the client claims', async () => {
    const proxied = await createTestApp(contextWith({ trustProxy: 1 }), registerAuth);
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        // The client claims a new address each time; the proxy appends the real one.
        const response = await loginOn(proxied, 'alice', 'wrong', proxy, {
          'x-forwarded-for': `192.0.2.${attempt}, ${attacker}`,
        });
        expect(response.statusCode).toBe(401);
      }
      const claimed = await loginOn(proxied, 'alice', 'alice-password', proxy, {
        'x-forwarded-for': `192.0.2.99, ${attacker}`,
      });
      expect(claimed.statusCode).toBe(429);
      const ownerLogin = await loginOn(proxied, 'alice', 'alice-password', proxy, {
        'x-forwarded-for': owner,
      });
      expect(ownerLogin.statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});
