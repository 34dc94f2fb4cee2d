import { createHash } from 'node:crypto';
import type { OAuthApplication, OAuthAuthorizeAnswer } from '@flotilla/shared/auth/oauth';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Database } from '../../infra/db/database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { registerAuth } from '../auth/register-auth.js';
import { registerPlatformAdmin } from '../platform-admin/register-platform-admin.js';
import { registerOAuth } from './register-oauth.js';

let db: Database;
let app: FastifyInstance;
let ctx: AppContext;
let clock: Date;
let adminToken: string;
let userToken: string;
let application: OAuthApplication;
const redirect = 'https://app.example/callback?from=flotilla';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const createAccount = async (username: string, admin = false): Promise<string> => {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "user" ("username", "email", "password_hash") VALUES ($1, $2, $3) RETURNING "id"`,
    [username, `${username}@example.com`, await hashTestPassword(`${username}-password`)],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('no user');
  if (admin) {
    await db.query(
      `INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, 'balena_admin')`,
      [id],
    );
  }
  const login = await app.inject({
    method: 'POST',
    url: '/login_',
    payload: { username, password: `${username}-password` },
  });
  return login.body;
};

const register = (token: string, payload: object) =>
  app.inject({
    method: 'POST',
    url: '/admin/v1/oauth-applications',
    headers: bearer(token),
    payload,
  });

const authorize = (token: string, payload: object) =>
  app.inject({ method: 'POST', url: '/oauth/authorize', headers: bearer(token), payload });

const exchange = (form: Record<string, string>, json = false) =>
  app.inject({
    method: 'POST',
    url: '/oauth/token',
    ...(json
      ? { payload: form }
      : {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(form).toString(),
        }),
  });

const codeFor = async (token = userToken): Promise<string> => {
  const response = await authorize(token, {
    client_id: application.clientId,
    response_type: 'code',
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<OAuthAuthorizeAnswer>().code;
};

const grant = (code: string, overrides: Record<string, string> = {}) => ({
  grant_type: 'authorization_code',
  code,
  client_id: application.clientId,
  redirect_uri: redirect,
  ...overrides,
});

beforeAll(async () => {
  db = await createTestDatabase();
  clock = new Date('2026-11-24T10:00:00Z');
  ctx = createTestContext(db, { now: () => clock });
  app = await createTestApp(ctx, registerAuth, registerPlatformAdmin, registerOAuth);
  adminToken = await createAccount('root', true);
  userToken = await createAccount('ann');
  const created = await register(adminToken, { name: 'Grafana', redirect_uri: redirect });
  expect(created.statusCode, created.body).toBe(201);
  application = created.json<OAuthApplication>();
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('registering OAuth applications', () => {
  it('is for platform administrators only', async () => {
    const refused = await register(userToken, { name: 'Mine', redirect_uri: redirect });
    expect(refused.statusCode).toBe(401);
    const list = await app.inject({
      url: '/admin/v1/oauth-applications',
      headers: bearer(userToken),
    });
    expect(list.statusCode).toBe(401);
    const removal = await app.inject({
      method: 'DELETE',
      url: `/admin/v1/oauth-applications/${application.id}`,
      headers: bearer(userToken),
    });
    expect(removal.statusCode).toBe(401);
    const { rows } = await db.query('SELECT 1 FROM "oauth_application"');
    expect(rows).toHaveLength(1);
  });

  it('generates the client id and refuses redirect URIs that are not absolute http(s) without a fragment', async () => {
    expect(application.clientId).toMatch(/^[0-9a-f]{32}$/);
    for (const uri of [
      '/relative',
      'javascript:alert(1)',
      'https://a.example/#x',
      'https://u:p@a.example/',
    ]) {
      const response = await register(adminToken, { name: 'Bad', redirect_uri: uri });
      expect(response.statusCode, uri).toBe(400);
    }
    expect((await register(adminToken, { name: '', redirect_uri: redirect })).statusCode).toBe(400);
  });

  it('lists and deletes', async () => {
    const other = (
      await register(adminToken, { name: 'Tmp', redirect_uri: redirect })
    ).json<OAuthApplication>();
    const list = await app.inject({
      url: '/admin/v1/oauth-applications',
      headers: bearer(adminToken),
    });
    expect(list.json<OAuthApplication[]>().map((row) => row.name)).toEqual(['Grafana', 'Tmp']);
    const url = `/admin/v1/oauth-applications/${other.id}`;
    expect(
      (await app.inject({ method: 'DELETE', url, headers: bearer(adminToken) })).statusCode,
    ).toBe(204);
    expect(
      (await app.inject({ method: 'DELETE', url, headers: bearer(adminToken) })).statusCode,
    ).toBe(404);
  });
});

describe('authorize and exchange', () => {
  it('gives a code for the signed-in user, sent only to the registered redirect URI, exchanged for their token', async () => {
    const answer = await authorize(userToken, {
      client_id: application.clientId,
      response_type: 'code',
      redirect_uri: redirect,
      state: 'xyz',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json<OAuthAuthorizeAnswer>();
    expect(body).toMatchObject({ redirect_uri: redirect, state: 'xyz' });
    const token = await exchange(grant(body.code));
    expect(token.statusCode, token.body).toBe(200);
    expect(token.headers['cache-control']).toBe('no-store');
    const { access_token: accessToken, token_type: type } = token.json<{
      access_token: string;
      token_type: string;
    }>();
    expect(type).toBe('Bearer');
    const me = await app.inject({ url: '/actor/v1/whoami', headers: bearer(accessToken) });
    expect(me.json()).toMatchObject({ username: 'ann' });
  });

  it('refuses a redirect URI other than the registered one', async () => {
    const response = await authorize(userToken, {
      client_id: application.clientId,
      response_type: 'code',
      redirect_uri: 'https://evil.example/callback',
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('redirect_uri');
    const code = await codeFor();
    const wrong = await exchange(grant(code, { redirect_uri: 'https://evil.example/callback' }));
    expect(wrong.statusCode).toBe(400);
    // The failed try used the code up.
    expect((await exchange(grant(code))).body).toContain('already used');
  });

  it('exchanges a code once', async () => {
    const code = await codeFor();
    expect((await exchange(grant(code), true)).statusCode).toBe(200);
    const again = await exchange(grant(code));
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('already used');
  });

  it('refuses an expired code (10 minutes)', async () => {
    const code = await codeFor();
    clock = new Date(clock.getTime() + 600_000);
    try {
      const late = await exchange(grant(code));
      expect(late.statusCode).toBe(400);
      expect(late.body).toContain('expired');
    } finally {
      clock = new Date(clock.getTime() - 600_000);
    }
    const fresh = await codeFor();
    clock = new Date(clock.getTime() + 599_000);
    try {
      expect((await exchange(grant(fresh))).statusCode).toBe(200);
    } finally {
      clock = new Date(clock.getTime() - 599_000);
    }
  });

  it('refuses unknown codes, another client, bad grant and response types, and guests', async () => {
    expect((await exchange(grant('made-up'))).body).toContain('unknown');
    const other = (
      await register(adminToken, { name: 'Other', redirect_uri: redirect })
    ).json<OAuthApplication>();
    const code = await codeFor();
    expect((await exchange(grant(code, { client_id: other.clientId }))).body).toContain(
      'another client',
    );
    expect((await exchange(grant('x', { grant_type: 'password' }))).statusCode).toBe(400);
    const implicit = await authorize(userToken, {
      client_id: application.clientId,
      response_type: 'token',
    });
    expect(implicit.statusCode).toBe(400);
    const guest = await app.inject({
      method: 'POST',
      url: '/oauth/authorize',
      payload: { client_id: application.clientId, response_type: 'code' },
    });
    expect(guest.statusCode).toBe(401);
    expect(
      (await authorize(userToken, { client_id: 'nope', response_type: 'code' })).statusCode,
    ).toBe(404);
  });

  it('refuses a login-as session (the token would no longer name the administrator)', async () => {
    const loginAs = await app.inject({
      method: 'PATCH',
      url: '/login_',
      headers: bearer(adminToken),
      payload: { username: 'ann' },
    });
    const response = await authorize(loginAs.body, {
      client_id: application.clientId,
      response_type: 'code',
    });
    expect(response.statusCode).toBe(401);
  });

  it('with PKCE (S256), exchanges only with the matching code_verifier', async () => {
    const verifier = 'v'.repeat(20) + '-._~' + 'A1'.repeat(10);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const withChallenge = async (): Promise<string> => {
      const response = await authorize(userToken, {
        client_id: application.clientId,
        response_type: 'code',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<OAuthAuthorizeAnswer>().code;
    };
    const missing = await exchange(grant(await withChallenge()));
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('code_verifier');
    const wrong = await exchange(grant(await withChallenge(), { code_verifier: 'w'.repeat(43) }));
    expect(wrong.body).toContain('code_verifier');
    const right = await exchange(grant(await withChallenge(), { code_verifier: verifier }));
    expect(right.statusCode, right.body).toBe(200);
    const plain = await authorize(userToken, {
      client_id: application.clientId,
      response_type: 'code',
      code_challenge: challenge,
    });
    expect(plain.statusCode).toBe(400);
    expect(plain.body).toContain('S256');
  });
});
