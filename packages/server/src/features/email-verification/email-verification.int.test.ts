import {
  emailVerificationLifetimeHours,
  expiredVerificationLinkMessage,
  invalidVerificationLinkMessage,
} from '@flotilla/shared/auth/account-mail';
import { freshAuthenticationRequiredMessage } from '@flotilla/shared/auth/reauthentication';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../infra/db/database.js';
import { registerODataRoutes } from '../../infra/odata/register-odata-routes.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { registerEmailChange } from '../account/change-email.js';
import { registerAccount } from '../account/register-account.js';
import { registerApiKeys } from '../api-keys/register-api-keys.js';
import { registerAuth } from '../auth/register-auth.js';
import { verificationMailOf } from './verification-mail-of.js';
import { registerUserHooks } from '../users/user-hooks.js';
import {
  registerEmailVerification,
  registerVerificationHooks,
  verificationMailsPerHour,
} from './register-email-verification.js';
import { createVerificationSigner } from './verification-token.js';

let db: Database;
let ctx: AppContext;
let app: FastifyInstance;
let clock: Date;
let count = 0;

const tick = (ms: number): void => {
  clock = new Date(clock.getTime() + ms);
};

type Mail = { recipient: string; subject: string; text_body: string; links: string[] };

const mailsTo = async (address: string): Promise<Mail[]> =>
  (
    await db.query<Mail>(
      `SELECT "recipient", "subject", "text_body", "links" FROM "mail_message"
        WHERE lower("recipient") = lower($1) ORDER BY "id"`,
      [address],
    )
  ).rows;

// The token and address of the last verification link mailed to `address`.
const mailedLink = async (address: string): Promise<{ token: string; email: string }> => {
  const link = (await mailsTo(address)).at(-1)?.links[0] ?? '';
  const match = /\/user\/verify-email\/([^/]+)\/([^/]+)$/.exec(link);
  if (!match?.[1] || !match[2]) throw new Error(`no verification link to ${address}: ${link}`);
  return { token: decodeURIComponent(match[1]), email: decodeURIComponent(match[2]) };
};

const signUp = async (target: FastifyInstance = app) => {
  count += 1;
  const email = `new${count}@example.com`;
  const response = await target.inject({
    method: 'POST',
    url: '/user/register',
    payload: { email, password: 'a-good-password' },
  });
  expect(response.statusCode).toBe(200);
  const userId = Number(decodeJwt(response.body).id);
  return { email, token: response.body, userId };
};

const flags = async (userId: number) =>
  (
    await db.query<{ is_verified: boolean; must_be_verified: boolean }>(
      'SELECT "is_verified", "must_be_verified" FROM "user_profile" WHERE "id" = $1',
      [userId],
    )
  ).rows[0];

const verify = (verificationToken: string, email: string) =>
  app.inject({
    method: 'POST',
    url: '/user/v1/verify-email',
    payload: { verificationToken, email },
  });

const requestVerificationEmail = (userId: number, token: string) =>
  app.inject({
    method: 'PATCH',
    url: `/v7/user(${userId})`,
    headers: { authorization: `Bearer ${token}` },
    payload: { has_been_sent_verification_email: true },
  });

beforeAll(async () => {
  db = await createTestDatabase();
  clock = new Date('2026-06-01T08:00:00Z');
  ctx = createTestContext(db, { now: () => clock, config: { requireEmailVerification: true } });
  registerUserHooks(ctx.hooks);
  const verification = {
    signer: createVerificationSigner(ctx.jwtSecret),
    publicUrl: () => 'https://flotilla.example.com',
  };
  registerVerificationHooks(ctx.hooks, {
    ...verification,
    limiter: createRateLimiter(db, ctx.now),
  });
  app = await createTestApp(
    ctx,
    registerAuth,
    (target, context) =>
      registerEmailVerification(target, context, verificationMailOf(target, context)),
    registerAccount,
    registerApiKeys,
    (target, context) => registerEmailChange(target, context, verification),
    registerODataRoutes,
  );
});

afterAll(async () => {
  await app.close();
  await db.close();
});

beforeEach(async () => {
  await db.query('DELETE FROM "rate_limit_hit"');
});

describe('sign-up', () => {
  it('mails a verification link and, when verification is required, marks the user', async () => {
    const { email, userId } = await signUp();
    expect(await flags(userId)).toEqual({ is_verified: false, must_be_verified: true });
    const [mail, ...more] = await mailsTo(email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Verify your e-mail address for Flotilla');
    expect(mail?.text_body).toContain(`Open the link to confirm ${email}`);
    expect(mail?.text_body).toContain('The link works until Tue, 02 Jun 2026 08:00:00 GMT');
    expect(mail?.links[0]).toMatch(
      new RegExp(`^http://localhost/user/verify-email/[^/]+/${encodeURIComponent(email)}$`),
    );
  });

  it('does not mark the user when verification is not required, and still mails the link', async () => {
    const relaxed = await createTestApp(
      createTestContext(db, { now: () => clock, config: { requireEmailVerification: false } }),
      registerAuth,
    );
    try {
      const { email, userId } = await signUp(relaxed);
      expect(await flags(userId)).toEqual({ is_verified: false, must_be_verified: false });
      expect(await mailsTo(email)).toHaveLength(1);
    } finally {
      await relaxed.close();
    }
  });
});

describe('POST /user/v1/verify-email', () => {
  it('verifies the address (in any case) and answers a session token of the user', async () => {
    const { email, userId } = await signUp();
    const link = await mailedLink(email);
    const response = await verify(link.token, link.email.toUpperCase());
    expect(response.statusCode).toBe(200);
    expect(decodeJwt(response.body)).toMatchObject({ id: userId });
    expect(decodeJwt(response.body)).not.toHaveProperty('twoFactorRequired');
    expect(await flags(userId)).toEqual({ is_verified: true, must_be_verified: true });
  });

  it('works once: a used link is refused and signs nobody in', async () => {
    const { email } = await signUp();
    const link = await mailedLink(email);
    expect((await verify(link.token, link.email)).statusCode).toBe(200);
    const again = await verify(link.token, link.email);
    expect(again.statusCode).toBe(400);
    expect(again.body).toBe(invalidVerificationLinkMessage);
  });

  it('works once for a new address too', async () => {
    const { email, token, userId } = await signUp();
    const first = await mailedLink(email);
    expect((await verify(first.token, first.email)).statusCode).toBe(200);
    const changed = await app.inject({
      method: 'PATCH',
      url: '/user/email',
      headers: { authorization: `Bearer ${token}` },
      payload: { email: `changed-${email}`, password: 'a-good-password' },
    });
    expect(changed.statusCode).toBe(204);
    const link = await mailedLink(`changed-${email}`);
    expect((await verify(link.token, link.email)).statusCode).toBe(200);
    expect((await verify(link.token, link.email)).statusCode).toBe(400);
    const { rows } = await db.query('SELECT "email" FROM "user" WHERE "id" = $1', [userId]);
    expect(rows[0]).toEqual({ email: `changed-${email}` });
  });

  it('signs in as a session that is not a fresh authentication', async () => {
    const { email } = await signUp();
    const link = await mailedLink(email);
    const response = await verify(link.token, link.email);
    // No password was given: authTime is not now, so keys and two-factor ask for it first.
    expect(decodeJwt(response.body)).toMatchObject({ authTime: 0 });
    const key = await app.inject({
      method: 'POST',
      url: '/api-key/user/full',
      headers: { authorization: `Bearer ${response.body}` },
      payload: { name: 'from the link' },
    });
    expect(key.statusCode).toBe(401);
    expect(key.body).toBe(freshAuthenticationRequiredMessage);
    const { rows } = await db.query('SELECT 1 FROM "api_key"');
    expect(rows).toEqual([]);
  });

  it('is ended by a password change', async () => {
    const { email, token } = await signUp();
    const first = await mailedLink(email);
    expect((await verify(first.token, first.email)).statusCode).toBe(200);
    const changing = await app.inject({
      method: 'PATCH',
      url: '/user/email',
      headers: { authorization: `Bearer ${token}` },
      payload: { email: `next-${email}`, password: 'a-good-password' },
    });
    expect(changing.statusCode).toBe(204);
    const link = await mailedLink(`next-${email}`);
    const changed = await app.inject({
      method: 'PATCH',
      url: '/user/password',
      headers: { authorization: `Bearer ${token}` },
      payload: { currentPassword: 'a-good-password', password: 'another-good-password' },
    });
    expect(changed.statusCode).toBe(200);
    const refused = await verify(link.token, link.email);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toBe(invalidVerificationLinkMessage);
  });

  it('keeps the session pending when the user has two-factor authentication', async () => {
    const { email, userId } = await signUp();
    await db.query(
      `INSERT INTO "user_two_factor" ("user", "secret", "enabled_at") VALUES ($1, 'S', now())`,
      [userId],
    );
    const link = await mailedLink(email);
    const response = await verify(link.token, link.email);
    expect(decodeJwt(response.body)).toMatchObject({ id: userId, twoFactorRequired: true });
  });

  it('refuses a link for another address, a tampered one and an expired one', async () => {
    const { email, userId } = await signUp();
    const link = await mailedLink(email);
    for (const [token, address] of [
      [link.token, 'someone@example.com'],
      [`${link.token.slice(0, -2)}AA`, link.email],
      [link.token.replace(/^\d+/, String(userId + 1)), link.email],
      ['garbage', link.email],
    ] as const) {
      const refused = await verify(token, address);
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toBe(invalidVerificationLinkMessage);
    }
    tick(emailVerificationLifetimeHours * 3600 * 1000);
    const expired = await verify(link.token, link.email);
    expect(expired.statusCode).toBe(400);
    expect(expired.body).toBe(expiredVerificationLinkMessage);
    expect(await flags(userId)).toMatchObject({ is_verified: false });
  });
});

describe('requestVerificationEmail (PATCH /v7/user)', () => {
  it('mails a new link while unverified, a limited number of times an hour', async () => {
    const { email, token, userId } = await signUp();
    const response = await requestVerificationEmail(userId, token);
    expect(response.statusCode).toBe(200);
    expect(await mailsTo(email)).toHaveLength(2);
    for (let sent = 1; sent < verificationMailsPerHour; sent += 1) {
      expect((await requestVerificationEmail(userId, token)).statusCode).toBe(200);
    }
    const limited = await requestVerificationEmail(userId, token);
    expect(limited.statusCode).toBe(429);
    expect(await mailsTo(email)).toHaveLength(1 + verificationMailsPerHour);
  });

  it('refuses when there is nothing to verify, and mails nothing', async () => {
    const { email, token, userId } = await signUp();
    const link = await mailedLink(email);
    await verify(link.token, link.email);
    const refused = await requestVerificationEmail(userId, token);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toBe('This e-mail address is already verified');
    expect(await mailsTo(email)).toHaveLength(1);
  });
});
