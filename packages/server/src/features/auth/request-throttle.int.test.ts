import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../infra/db/database.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import type { CaptchaVerifier } from './captcha.js';
import { registerAuth } from './register-auth.js';
import { throttleAccountRequest } from './request-throttle.js';

// Sign-up (and, later, password-reset) requests are throttled per client address, and per
// account when the request names one.
let db: Database;
let clock: Date;
let ctx: AppContext;
let app: FastifyInstance;
let captchaCalls = 0;

const countingCaptcha: CaptchaVerifier = {
  verify: async () => {
    captchaCalls += 1;
    return true;
  },
};

const tick = (ms: number): void => {
  clock = new Date(clock.getTime() + ms);
};

let emails = 0;
const signUp = (remoteAddress: string, email = `person${(emails += 1)}@example.com`) =>
  app.inject({
    method: 'POST',
    url: '/user/register',
    payload: { email, password: 'long enough' },
    remoteAddress,
  });

beforeAll(async () => {
  db = await createTestDatabase();
  clock = new Date('2026-03-01T12:00:00Z');
  ctx = createTestContext(db, { now: () => clock, config: { signupRateLimitPerHour: 2 } });
  app = await createTestApp(ctx, (instance, context) =>
    registerAuth(instance, context, { captcha: countingCaptcha }),
  );
});

afterAll(async () => {
  await app.close();
  await db.close();
});

beforeEach(async () => {
  await db.query('DELETE FROM "rate_limit_hit"');
  captchaCalls = 0;
});

describe('POST /user/register throttling', () => {
  it('answers 429 past FLOTILLA_SIGNUP_RATE_LIMIT per client address and hour', async () => {
    expect((await signUp('198.51.100.7', 'taken@example.com')).statusCode).toBe(200);
    // A refused duplicate counts too: that answer tells whether an account exists.
    expect((await signUp('198.51.100.7', 'TAKEN@example.com')).statusCode).toBe(409);
    tick(10 * 60_000);
    const limited = await signUp('198.51.100.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toBe('Too Many Requests. Try again later');
    expect(limited.headers['retry-after']).toBe(String(50 * 60));
    // The captcha provider is not asked for refused requests.
    expect(captchaCalls).toBe(2);
    expect((await signUp('198.51.100.8')).statusCode).toBe(200);
    tick(50 * 60_000);
    expect((await signUp('198.51.100.7')).statusCode).toBe(200);
  });

  it('does not count requests refused for their body', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await app.inject({
        method: 'POST',
        url: '/user/register',
        payload: { email: 'not-an-email', password: 'long enough' },
        remoteAddress: '198.51.100.9',
      });
      expect(response.statusCode).toBe(400);
    }
    expect((await signUp('198.51.100.9')).statusCode).toBe(200);
  });
});

describe('throttleAccountRequest', () => {
  it('also limits requests about one account coming from many addresses', async () => {
    const limiter = createRateLimiter(db, () => clock);
    const reset = (clientAddress: string) =>
      throttleAccountRequest(limiter, {
        kind: 'password-reset',
        clientAddress,
        limitPerHour: 5,
        account: { key: 'alice@example.com', limitPerHour: 2 },
      });
    await reset('192.0.2.1');
    await reset('192.0.2.2');
    await expect(reset('192.0.2.3')).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfterSeconds: 3600,
    });
    // Other kinds of request have their own buckets.
    await expect(
      throttleAccountRequest(limiter, {
        kind: 'signup',
        clientAddress: '192.0.2.3',
        limitPerHour: 1,
      }),
    ).resolves.toBeDefined();
  });
});
