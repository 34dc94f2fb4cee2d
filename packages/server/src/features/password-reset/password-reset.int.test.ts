import { passwordResetErrors } from '@flotilla/shared/auth/account-mail';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import type { CaptchaVerifier } from '../auth/captcha.js';
import { registerAuth } from '../auth/register-auth.js';
import { verificationMailOf } from '../email-verification/verification-mail-of.js';
import { registerPasswordReset } from './register-password-reset.js';

let db: Database;
let ctx: AppContext;
let app: FastifyInstance;
let clock: Date;

const tick = (ms: number): void => {
  clock = new Date(clock.getTime() + ms);
};

// Accepts the one answer the tests give as a solved captcha, refuses everything else.
const captcha: CaptchaVerifier = {
  verify: (response) => Promise.resolve(response === 'solved'),
};

type Mail = { recipient: string; subject: string; text_body: string; links: string[] };

const mails = async (): Promise<Mail[]> =>
  (
    await db.query<Mail>(
      'SELECT "recipient", "subject", "text_body", "links" FROM "mail_message" ORDER BY "id"',
    )
  ).rows;

// null sends no captcha answer at all.
const requestReset = (email: string, captchaResponse: string | null = 'solved') =>
  app.inject({
    method: 'POST',
    url: `/user/reset-password/${encodeURIComponent(email)}`,
    payload: captchaResponse === null ? {} : { 'g-recaptcha-response': captchaResponse },
  });

const reset = (loginCode: string, password: string) =>
  app.inject({ method: 'POST', url: '/user/reset-password', payload: { loginCode, password } });

const login = (username: string, password: string) =>
  app.inject({ method: 'POST', url: '/login_', payload: { username, password } });

// The code of the last reset mail's link.
const mailedCode = async (): Promise<string> => {
  const last = (await mails()).at(-1);
  const match = /\/user\/reset-password\/([A-Za-z0-9_-]+)$/.exec(last?.links[0] ?? '');
  if (!match?.[1]) throw new Error(`no reset link in ${JSON.stringify(last)}`);
  return match[1];
};

beforeAll(async () => {
  db = await createTestDatabase();
  clock = new Date('2026-05-01T09:00:00Z');
  ctx = createTestContext(db, {
    now: () => clock,
    config: { passwordResetRateLimitPerHour: 50, passwordResetAccountRateLimitPerHour: 3 },
  });
  app = await createTestApp(
    ctx,
    (server, context) => registerAuth(server, context, { captcha }),
    (server, context) =>
      registerPasswordReset(server, context, {
        captcha,
        publicUrl: verificationMailOf(server, context).publicUrl,
      }),
  );
  await db.query(
    `INSERT INTO "user" ("username", "email", "password_hash") VALUES ('ada', 'Ada@Example.com', $1)`,
    [await hashTestPassword('old-password')],
  );
});

afterAll(async () => {
  await app.close();
  await db.close();
});

beforeEach(async () => {
  await db.query('DELETE FROM "rate_limit_hit"');
  await db.query('DELETE FROM "mail_message"');
  await db.query('DELETE FROM "password_reset_code"');
});

describe('POST /user/reset-password/:email (the request)', () => {
  it('mails the account a single-use link to the reset page, found ignoring case', async () => {
    const response = await requestReset('ada@EXAMPLE.com');
    expect(response.statusCode).toBe(204);
    const [mail, ...others] = await mails();
    expect(others).toEqual([]);
    expect(mail).toMatchObject({
      recipient: 'Ada@Example.com',
      subject: 'Reset your Flotilla password',
    });
    expect(mail?.links[0]).toMatch(/^http:\/\/localhost\/user\/reset-password\/[\w-]{43}$/);
    expect(mail?.text_body).toContain('The link works once, until Fri, 01 May 2026 10:00:00 GMT');
    expect(mail?.text_body).toContain(mail?.links[0]);
  });

  it('answers an unknown address exactly as a known one, and mails nothing', async () => {
    const known = await requestReset('ada@example.com');
    await db.query('DELETE FROM "mail_message"');
    const unknown = await requestReset('nobody@example.com');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
    expect(await mails()).toEqual([]);
  });

  it('refuses what is not an e-mail address and a missing or wrong captcha answer', async () => {
    const bad = await requestReset('not-an-address');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toBe('email: Invalid e-mail address');
    for (const answer of [null, 'robot']) {
      const refused = await requestReset('ada@example.com', answer);
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toBe('Invalid captcha response');
    }
    expect(await mails()).toEqual([]);
  });

  it('limits requests per e-mail address (known or not) with 429 and Retry-After', async () => {
    for (const email of ['ada@example.com', 'nobody@example.com']) {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect((await requestReset(email.toUpperCase())).statusCode).toBe(204);
      }
      const limited = await requestReset(email);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBe('3600');
    }
    expect((await mails()).length).toBe(3);
    tick(3_600_000);
    expect((await requestReset('ada@example.com')).statusCode).toBe(204);
  });
});

describe('POST /user/reset-password (the reset)', () => {
  it('sets the new password, ends every session, and works once', async () => {
    const before = await login('ada', 'old-password');
    expect(before.statusCode).toBe(200);
    await requestReset('ada@example.com');
    const code = await mailedCode();

    const response = await reset(code, 'new-password');
    expect(response.statusCode).toBe(204);
    await ctx.notifications.sync();
    const oldSession = await app.inject({
      url: '/user/v1/whoami',
      headers: { authorization: `Bearer ${before.body}` },
    });
    expect(oldSession.statusCode).toBe(401);
    expect((await login('ada', 'old-password')).statusCode).toBe(401);
    expect((await login('ada', 'new-password')).statusCode).toBe(200);

    const again = await reset(code, 'third-password');
    expect(again.statusCode).toBe(400);
    expect(again.body).toBe(passwordResetErrors.invalid.message);
    expect((await login('ada', 'new-password')).statusCode).toBe(200);
    await db.query(`UPDATE "user" SET "password_hash" = $1 WHERE "username" = 'ada'`, [
      await hashTestPassword('old-password'),
    ]);
  });

  it('refuses an expired link (code 3) and an unknown one (code 4)', async () => {
    await requestReset('ada@example.com');
    const code = await mailedCode();
    tick(60 * 60_000);
    const expired = await reset(code, 'new-password');
    expect(expired.statusCode).toBe(400);
    expect(expired.body).toBe(passwordResetErrors.expired.message);
    const unknown = await reset('not-a-code', 'new-password');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toBe(passwordResetErrors.invalid.message);
    expect((await login('ada', 'old-password')).statusCode).toBe(200);
  });

  it('keeps only the latest link working', async () => {
    await requestReset('ada@example.com');
    const first = await mailedCode();
    await requestReset('ada@example.com');
    const second = await mailedCode();
    expect((await reset(first, 'new-password')).body).toBe(passwordResetErrors.invalid.message);
    expect((await reset(second, 'new-password')).statusCode).toBe(204);
    await db.query(`UPDATE "user" SET "password_hash" = $1 WHERE "username" = 'ada'`, [
      await hashTestPassword('old-password'),
    ]);
  });

  it('checks the password rules before using the code up', async () => {
    await requestReset('ada@example.com');
    const code = await mailedCode();
    for (const [password, message] of [
      ['short', 'Password must be at least 8 characters'],
      ['x'.repeat(65), 'Password must be at most 64 characters'],
    ] as const) {
      const refused = await reset(code, password);
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toBe(message);
    }
    const missing = await app.inject({
      method: 'POST',
      url: '/user/reset-password',
      payload: { password: 'new-password' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toBe('loginCode: loginCode is required');
    expect((await reset(code, 'new-password')).statusCode).toBe(204);
  });
});
