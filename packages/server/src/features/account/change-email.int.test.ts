import {
  emailTakenMessage,
  invalidVerificationLinkMessage,
} from '@flotilla/shared/auth/account-mail';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Database } from '../../infra/db/database.js';
import { registerODataRoutes } from '../../infra/odata/register-odata-routes.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import {
  createTestApp,
  createTestContext,
  type FeatureRegistration,
} from '../../test-support/test-context.js';
import { registerAuth } from '../auth/register-auth.js';
import { registerEmailVerification } from '../email-verification/register-email-verification.js';
import { verificationMailOf } from '../email-verification/verification-mail-of.js';
import { createVerificationSigner } from '../email-verification/verification-token.js';
import { registerEmailChange } from './change-email.js';
import { emailChangeNoticeSubject } from './email-change-notice.js';

let db: Database;
let ctx: AppContext;
// Verification required (the new address waits), and not required (it replaces the old at once).
let strict: FastifyInstance;
let relaxed: FastifyInstance;
let count = 0;

type Account = {
  email: string;
  pending_email: string | null;
  is_verified: boolean;
};

const withEmailChange =
  (context: AppContext) =>
  (app: FastifyInstance): void =>
    registerEmailChange(app, context, {
      signer: createVerificationSigner(context.jwtSecret),
      publicUrl: () => 'https://flotilla.example.com',
    });

const newAccount = async (app: FastifyInstance) => {
  count += 1;
  const email = `person${count}@example.com`;
  await db.query(
    `INSERT INTO "user" ("username", "email", "password_hash", "is_verified")
     VALUES ($1, $2, $3, true)`,
    [`person${count}`, email, await hashTestPassword('the-password')],
  );
  const login = await app.inject({
    method: 'POST',
    url: '/login_',
    payload: { username: email, password: 'the-password' },
  });
  expect(login.statusCode).toBe(200);
  return { email, token: login.body };
};

const accountOf = async (email: string): Promise<Account | undefined> =>
  (
    await db.query<Account>(
      `SELECT "email", "pending_email", "is_verified" FROM "user"
        WHERE lower("email") = lower($1) OR lower("pending_email") = lower($1)`,
      [email],
    )
  ).rows[0];

const changeEmail = (app: FastifyInstance, token: string, payload: object) =>
  app.inject({
    method: 'PATCH',
    url: '/user/email',
    headers: { authorization: `Bearer ${token}` },
    payload,
  });

const mailsTo = async (
  address: string,
): Promise<{ subject: string; text_body: string; links: string[] }[]> =>
  (
    await db.query<{ subject: string; text_body: string; links: string[] }>(
      `SELECT "subject", "text_body", "links" FROM "mail_message"
        WHERE lower("recipient") = lower($1) ORDER BY "id"`,
      [address],
    )
  ).rows;

const verifyLastLinkTo = async (app: FastifyInstance, address: string) => {
  const link = (await mailsTo(address)).at(-1)?.links[0] ?? '';
  const match = /\/user\/verify-email\/([^/]+)\/([^/]+)$/.exec(link);
  if (!match?.[1] || !match[2]) throw new Error(`no verification link to ${address}`);
  return app.inject({
    method: 'POST',
    url: '/user/v1/verify-email',
    payload: {
      verificationToken: decodeURIComponent(match[1]),
      email: decodeURIComponent(match[2]),
    },
  });
};

const withVerification: FeatureRegistration = (target, context) =>
  registerEmailVerification(target, context, verificationMailOf(target, context));

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = createTestContext(db, {
    config: { requireEmailVerification: true, emailChangeRateLimitPerHour: 2 },
  });
  strict = await createTestApp(
    ctx,
    registerAuth,
    withVerification,
    withEmailChange(ctx),
    registerODataRoutes,
  );
  const relaxedCtx = createTestContext(db, {
    jwtSecret: ctx.jwtSecret,
    config: { requireEmailVerification: false },
  });
  relaxed = await createTestApp(
    relaxedCtx,
    registerAuth,
    withVerification,
    withEmailChange(relaxedCtx),
  );
});

afterAll(async () => {
  await strict.close();
  await relaxed.close();
  await db.close();
});

beforeEach(async () => {
  await db.query('DELETE FROM "rate_limit_hit"');
});

const readPendingEmail = async (token: string, userId: number) => {
  const response = await strict.inject({
    method: 'GET',
    url: `/v7/user(${userId})?$select=id,pending_email`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ d: { id: number; pending_email: string | null }[] }>().d;
};

const userIdOf = async (email: string): Promise<number> => {
  const { rows } = await db.query<{ id: number }>('SELECT "id" FROM "user" WHERE "email" = $1', [
    email,
  ]);
  return rows[0]?.id ?? 0;
};

describe('the address waiting for verification', () => {
  it('is served to its owner on /v7 user, and to nobody else', async () => {
    const owner = await newAccount(strict);
    const fellow = await newAccount(strict);
    const ownerId = await userIdOf(owner.email);
    const fellowId = await userIdOf(fellow.email);
    // Fellow members of an organization read each other's user rows (id and username).
    await db.query(
      `WITH o AS (INSERT INTO "organization" ("name", "handle") VALUES ('Shared', $3) RETURNING "id")
       INSERT INTO "organization_membership" ("user", "is_member_of__organization",
                                              "organization_membership_role")
       SELECT u, o."id", (SELECT "id" FROM "organization_membership_role" WHERE "name" = 'member')
         FROM o, unnest(ARRAY[$1::integer, $2::integer]) AS u`,
      [ownerId, fellowId, `shared${ownerId}`],
    );
    expect(await readPendingEmail(owner.token, ownerId)).toEqual([
      { id: ownerId, pending_email: null },
    ]);
    await changeEmail(strict, owner.token, {
      email: 'waiting@example.com',
      password: 'the-password',
    });
    expect(await readPendingEmail(owner.token, ownerId)).toEqual([
      { id: ownerId, pending_email: 'waiting@example.com' },
    ]);
    expect(await readPendingEmail(fellow.token, ownerId)).toEqual([
      { id: ownerId, pending_email: null },
    ]);
    const filtered = await strict.inject({
      method: 'GET',
      url: `/v7/user?$select=id&$filter=pending_email eq 'waiting@example.com'`,
      headers: { authorization: `Bearer ${fellow.token}` },
    });
    expect(filtered.json()).toEqual({ d: [] });
    await verifyLastLinkTo(strict, 'waiting@example.com');
    expect(await readPendingEmail(owner.token, ownerId)).toEqual([
      { id: ownerId, pending_email: null },
    ]);
  });
});

describe('PATCH /user/email while verification is required', () => {
  it('keeps the old address until the new one is verified, answering an empty 204', async () => {
    const { email, token } = await newAccount(strict);
    const response = await changeEmail(strict, token, {
      email: 'moved@example.com',
      password: 'the-password',
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await accountOf(email)).toEqual({
      email,
      pending_email: 'moved@example.com',
      is_verified: true,
    });
    const [mail] = await mailsTo('moved@example.com');
    expect(mail?.text_body).toContain(
      'Open the link to confirm moved@example.com as the new e-mail address',
    );

    expect((await verifyLastLinkTo(strict, 'moved@example.com')).statusCode).toBe(200);
    expect(await accountOf('moved@example.com')).toEqual({
      email: 'moved@example.com',
      pending_email: null,
      is_verified: true,
    });
  });

  it('ends the link of an address the user changed their mind about', async () => {
    const { token } = await newAccount(strict);
    await changeEmail(strict, token, { email: 'first@example.com', password: 'the-password' });
    await changeEmail(strict, token, { email: 'second@example.com', password: 'the-password' });
    const stale = await verifyLastLinkTo(strict, 'first@example.com');
    expect(stale.statusCode).toBe(400);
    expect(stale.body).toBe(invalidVerificationLinkMessage);
  });

  it('refuses at verification an address another account took meanwhile', async () => {
    const rival = await newAccount(strict);
    const { token } = await newAccount(strict);
    await changeEmail(strict, token, { email: 'contested@example.com', password: 'the-password' });
    await db.query(`UPDATE "user" SET "email" = 'CONTESTED@example.com' WHERE "email" = $1`, [
      rival.email,
    ]);
    const refused = await verifyLastLinkTo(strict, 'contested@example.com');
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toBe(emailTakenMessage);
  });
});

describe('PATCH /user/email rules', () => {
  it('refuses another account address in any case with 409, and mails nothing', async () => {
    const other = await newAccount(strict);
    const { token } = await newAccount(strict);
    const response = await changeEmail(strict, token, {
      email: other.email.toUpperCase(),
      password: 'the-password',
    });
    expect(response.statusCode).toBe(409);
    expect(response.body).toBe(emailTakenMessage);
    expect(await mailsTo(other.email)).toEqual([]);
  });

  it('asks for the right password and a valid address', async () => {
    const { email, token } = await newAccount(strict);
    const cases = [
      [{ email: 'x@example.com', password: 'wrong-password' }, 401, 'Invalid password'],
      [{ email: 'x@example.com' }, 400, 'password is required'],
      [{ email: 'not-an-address', password: 'the-password' }, 400, 'email: Invalid e-mail address'],
      [{ password: 'the-password' }, 400, 'email: email is required'],
    ] as const;
    for (const [payload, status, message] of cases) {
      const response = await changeEmail(strict, token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.body).toBe(message);
    }
    expect(await accountOf(email)).toMatchObject({ email, pending_email: null });
    expect(await mailsTo('x@example.com')).toEqual([]);
  });

  it('saves a change of letter case at once', async () => {
    const { email, token } = await newAccount(strict);
    const response = await changeEmail(strict, token, {
      email: email.toUpperCase(),
      password: 'the-password',
    });
    expect(response.statusCode).toBe(200);
    expect(await accountOf(email)).toEqual({
      email: email.toUpperCase(),
      pending_email: null,
      is_verified: true,
    });
    // The same mailbox: no notice.
    expect(await mailsTo(email)).toEqual([]);
  });

  it('tells the old address, with the way back (a password reset)', async () => {
    const { email, token } = await newAccount(strict);
    await changeEmail(strict, token, { email: 'elsewhere@example.com', password: 'the-password' });
    const [notice, ...more] = await mailsTo(email);
    expect(more).toEqual([]);
    expect(notice?.subject).toBe(emailChangeNoticeSubject);
    expect(notice?.text_body).toContain(
      'is being changed to elsewhere@example.com. It changes once that address is verified.',
    );
    expect(notice?.links).toEqual(['https://flotilla.example.com/password-reset']);
  });
});

describe('PATCH /user/email without required verification', () => {
  it('replaces the address at once, unverified, and mails its link', async () => {
    const { email, token } = await newAccount(relaxed);
    const response = await changeEmail(relaxed, token, {
      email: 'direct@example.com',
      password: 'the-password',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ email: 'direct@example.com' });
    expect(await accountOf('direct@example.com')).toEqual({
      email: 'direct@example.com',
      pending_email: null,
      is_verified: false,
    });
    expect((await verifyLastLinkTo(relaxed, 'direct@example.com')).statusCode).toBe(200);
    expect(await accountOf('direct@example.com')).toMatchObject({ is_verified: true });
    const [notice] = await mailsTo(email);
    expect(notice?.text_body).toContain('was changed to direct@example.com.');
  });
});

describe('PATCH /user/email cannot mail any address at will', () => {
  it('allows FLOTILLA_EMAIL_CHANGE_RATE_LIMIT changes an hour per account, then 429 with Retry-After', async () => {
    const { token } = await newAccount(strict);
    for (const n of [1, 2]) {
      const response = await changeEmail(strict, token, {
        email: `target${n}@example.com`,
        password: 'the-password',
      });
      expect(response.statusCode).toBe(204);
    }
    const refused = await changeEmail(strict, token, {
      email: 'target3@example.com',
      password: 'the-password',
    });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect(await mailsTo('target3@example.com')).toEqual([]);
    // Another account is counted on its own.
    const other = await newAccount(strict);
    const allowed = await changeEmail(strict, other.token, {
      email: 'target3@example.com',
      password: 'the-password',
    });
    expect(allowed.statusCode).toBe(204);
  });
});
