import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../infra/db/database.js';
import { verifyEmailFirstMessage } from '../../infra/http/email-verification-gate.js';
import { buildServer } from '../../server.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// The whole server with verification required: a user who must verify their address and has not
// yet may do nothing but what verification needs (infra/http/email-verification-gate.ts).
let db: Database;
let ctx: AppContext;
let app: FastifyInstance;
let count = 0;

type Call = { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object };

const call = (token: string, { method, url, payload }: Call) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });

const signUp = async () => {
  count += 1;
  const email = `gate${count}@example.com`;
  const response = await app.inject({
    method: 'POST',
    url: '/user/register',
    payload: { email, password: 'a-good-password' },
  });
  expect(response.statusCode).toBe(200);
  return { email, token: response.body, userId: Number(decodeJwt(response.body).id) };
};

// The token and address of the last verification link mailed to `address`.
const mailedLink = async (address: string) => {
  const { rows } = await db.query<{ links: string[] }>(
    `SELECT "links" FROM "mail_message" WHERE lower("recipient") = lower($1) ORDER BY "id" DESC
      LIMIT 1`,
    [address],
  );
  const match = /\/user\/verify-email\/([^/]+)\/([^/]+)$/.exec(rows[0]?.links[0] ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`no verification link to ${address}`);
  return {
    verificationToken: decodeURIComponent(match[1]),
    email: decodeURIComponent(match[2]),
  };
};

// Refused to an unverified user, whatever the route: reads, writes, account and device routes.
const refusedCalls = (userId: number): Call[] => [
  { method: 'GET', url: '/v7/application?$select=id' },
  { method: 'GET', url: '/v7/device/$count' },
  { method: 'GET', url: `/v7/user(${userId})?$expand=user_application_membership` },
  { method: 'GET', url: `/v7/api_key?$filter=is_of__actor eq 1` },
  { method: 'POST', url: '/v7/organization', payload: { name: 'Mine', handle: 'mine' } },
  { method: 'PATCH', url: `/v7/user(${userId})`, payload: { username: 'renamed' } },
  {
    method: 'PATCH',
    url: `/v7/user(${userId})`,
    payload: { has_been_sent_verification_email: true, username: 'renamed' },
  },
  {
    method: 'PATCH',
    url: `/v7/user(${userId + 1})`,
    payload: { has_been_sent_verification_email: true },
  },
  { method: 'DELETE', url: `/v7/user(${userId})` },
  {
    method: 'PATCH',
    url: '/user/profile',
    payload: { first_name: 'A', last_name: 'B', company: 'C', account_type: 'personal' },
  },
  { method: 'POST', url: '/api-key/user/full', payload: { name: 'key' } },
  { method: 'GET', url: '/auth/totp/setup' },
  // A registry token (as git push): a push or pull is no route of verification.
  { method: 'GET', url: '/auth/v1/token?service=registry.test&scope=repository:v2/0a1b:pull' },
  { method: 'POST', url: '/logout-others' },
  { method: 'GET', url: '/download-config?deviceType=raspberrypi3&appId=1' },
  { method: 'GET', url: '/device/v3/0123456789abcdef0123456789abcdef/state' },
  { method: 'POST', url: '/supervisor/v1/blink', payload: { uuid: '0123456789abcdef' } },
];

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = createTestContext(db, { config: { requireEmailVerification: true } });
  app = buildServer(ctx);
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await db.close();
});

beforeEach(async () => {
  await db.query('DELETE FROM "rate_limit_hit"');
});

describe('a user who must verify their e-mail address', () => {
  it('is refused every route but what verification needs, with a 401 that says why', async () => {
    const { token, userId } = await signUp();
    for (const refused of refusedCalls(userId)) {
      const response = await call(token, refused);
      expect({ call: refused, status: response.statusCode, body: response.body }).toEqual({
        call: refused,
        status: 401,
        body: verifyEmailFirstMessage,
      });
    }
    // Nothing was written on the way.
    const { rows } = await db.query('SELECT 1 FROM "organization" WHERE "handle" = $1', ['mine']);
    expect(rows).toEqual([]);
  });

  it('may learn who they are, read their own account, ask for a new link and refresh', async () => {
    const { email, token, userId } = await signUp();
    const whoami = await call(token, { method: 'GET', url: '/actor/v1/whoami' });
    expect(whoami.statusCode).toBe(200);
    expect(whoami.json()).toMatchObject({ actorType: 'user', actorTypeId: userId, email });
    expect((await call(token, { method: 'GET', url: '/user/v1/whoami' })).statusCode).toBe(200);

    const profile = await call(token, {
      method: 'GET',
      url: `/v7/user_profile?$select=email,is_verified,must_be_verified&$filter=is_of__user eq ${userId}`,
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toEqual({
      d: [{ email, is_verified: false, must_be_verified: true }],
    });
    const user = await call(token, { method: 'GET', url: `/v7/user(${userId})?$select=id` });
    expect(user.json()).toEqual({ d: [{ id: userId }] });

    const resend = await call(token, {
      method: 'PATCH',
      url: `/v7/user(${userId})`,
      payload: { has_been_sent_verification_email: true },
    });
    expect(resend.statusCode).toBe(200);
    const { rows } = await db.query('SELECT 1 FROM "mail_message" WHERE "recipient" = $1', [email]);
    expect(rows).toHaveLength(2);

    const refreshed = await call(token, { method: 'GET', url: '/user/v1/refresh-token' });
    expect(refreshed.statusCode).toBe(200);
    expect(decodeJwt(refreshed.body)).toMatchObject({ id: userId });
  });

  it('answers public routes as it answers a guest', async () => {
    const { token } = await signUp();
    expect((await call(token, { method: 'GET', url: '/config/vars' })).statusCode).toBe(200);
    // A device type's settings need a signed-in user: a guest's answer.
    const bySlug = '/config/vars?deviceType=raspberrypi3';
    const guest = await app.inject({ method: 'GET', url: bySlug });
    const theirs = await call(token, { method: 'GET', url: bySlug });
    expect([theirs.statusCode, theirs.body]).toEqual([guest.statusCode, guest.body]);
    expect(theirs.statusCode).toBe(401);
  });

  it('may do everything once verified, with the same session token', async () => {
    const { email, token } = await signUp();
    const probe: Call = { method: 'GET', url: '/v7/application?$select=id' };
    expect((await call(token, probe)).statusCode).toBe(401);
    const verified = await app.inject({
      method: 'POST',
      url: '/user/v1/verify-email',
      payload: await mailedLink(email),
    });
    expect(verified.statusCode).toBe(200);
    expect((await call(token, probe)).statusCode).toBe(200);
    expect((await call(verified.body, probe)).statusCode).toBe(200);
  });

  it('is refused with an API key too, as soon as the account must verify again', async () => {
    const { email, token, userId } = await signUp();
    await app.inject({
      method: 'POST',
      url: '/user/v1/verify-email',
      payload: await mailedLink(email),
    });
    const created = await call(token, {
      method: 'POST',
      url: '/api-key/user/full',
      payload: { name: 'ci' },
    });
    expect(created.statusCode).toBe(200);
    const apiKey = String(created.json());
    const probe: Call = { method: 'GET', url: '/v7/application?$select=id' };
    expect((await call(apiKey, probe)).statusCode).toBe(200);
    // The actor cache hears the change (migration 0020) and drops what it knew.
    await db.query('UPDATE "user" SET "is_verified" = false WHERE "id" = $1', [userId]);
    const refused = await call(apiKey, probe);
    expect([refused.statusCode, refused.body]).toEqual([401, verifyEmailFirstMessage]);
  });
});

describe('a user who need not verify', () => {
  it('uses everything while unverified', async () => {
    const relaxedContext = createTestContext(db, { config: { requireEmailVerification: false } });
    const relaxed = buildServer(relaxedContext);
    await relaxed.ready();
    try {
      const response = await relaxed.inject({
        method: 'POST',
        url: '/user/register',
        payload: { email: 'relaxed@example.com', password: 'a-good-password' },
      });
      const read = await relaxed.inject({
        method: 'GET',
        url: '/v7/application?$select=id',
        headers: { authorization: `Bearer ${response.body}` },
      });
      expect(read.statusCode).toBe(200);
    } finally {
      await relaxed.close();
    }
  });
});
