import type {
  OAuthApplication,
  OAuthApplicationCreated,
  OAuthAuthorizeAnswer,
} from '@flotilla/shared/auth/oauth';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Database } from '../../infra/db/database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { registerAuth } from '../auth/register-auth.js';
import { registerPlatformAdmin } from '../platform-admin/register-platform-admin.js';
import { registerOAuth } from './register-oauth.js';

// Confidential clients (RFC 6749 sections 2.1 and 2.3.1): a secret generated at registration and
// shown once, required by /oauth/token in the body or as HTTP Basic credentials.

let db: Database;
let app: FastifyInstance;
let admin: string;
let user: string;
let confidential: OAuthApplicationCreated;
const redirect = 'https://ci.example/callback';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const signIn = async (username: string, platformAdmin = false): Promise<string> => {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "user" ("username", "email", "password_hash") VALUES ($1, $2, $3) RETURNING "id"`,
    [username, `${username}@example.com`, await hashTestPassword(`${username}-password`)],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('no user');
  if (platformAdmin) {
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

const register = async (payload: object): Promise<OAuthApplicationCreated> => {
  const response = await app.inject({
    method: 'POST',
    url: '/admin/v1/oauth-applications',
    headers: bearer(admin),
    payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<OAuthApplicationCreated>();
};

const codeFor = async (clientId: string): Promise<string> => {
  const response = await app.inject({
    method: 'POST',
    url: '/oauth/authorize',
    headers: bearer(user),
    payload: { client_id: clientId, response_type: 'code' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<OAuthAuthorizeAnswer>().code;
};

const exchange = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(form).toString(),
  });

const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`,
});

beforeAll(async () => {
  db = await createTestDatabase();
  const ctx = createTestContext(db, { now: () => new Date() });
  app = await createTestApp(ctx, registerAuth, registerPlatformAdmin, registerOAuth);
  admin = await signIn('root', true);
  user = await signIn('ann');
  confidential = await register({ name: 'CI', redirect_uri: redirect, confidential: true });
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('confidential OAuth clients', () => {
  it('get a secret shown once at registration, stored only as its hash; public clients none', async () => {
    expect(confidential.confidential).toBe(true);
    expect(confidential.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const open = await register({ name: 'Open', redirect_uri: redirect });
    expect(open).toEqual(expect.objectContaining({ confidential: false, clientSecret: null }));
    const list = await app.inject({ url: '/admin/v1/oauth-applications', headers: bearer(admin) });
    const listed = list.json<OAuthApplication[]>();
    expect(listed.map((row) => [row.name, row.confidential])).toEqual([
      ['CI', true],
      ['Open', false],
    ]);
    expect(list.body).not.toContain(confidential.clientSecret ?? '');
    const { rows } = await db.query<{ client_secret_hash: string }>(
      'SELECT "client_secret_hash" FROM "oauth_application" WHERE "id" = $1',
      [confidential.id],
    );
    expect(rows[0]?.client_secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.client_secret_hash).not.toContain(confidential.clientSecret ?? '');
  });

  it('exchange codes only with their secret; a refused secret leaves the code usable', async () => {
    const code = await codeFor(confidential.clientId);
    const grant = {
      grant_type: 'authorization_code',
      code,
      client_id: confidential.clientId,
      redirect_uri: redirect,
    };
    const missing = await exchange(grant);
    expect(missing.statusCode).toBe(401);
    expect(missing.body).toContain('invalid_client');
    expect(missing.headers['www-authenticate']).toBe('Basic realm="oauth"');
    const wrong = await exchange({ ...grant, client_secret: 'not-the-secret' });
    expect(wrong.statusCode).toBe(401);
    const right = await exchange({ ...grant, client_secret: confidential.clientSecret ?? '' });
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json<{ access_token: string }>().access_token).toBeTruthy();
  });

  it('accept HTTP Basic client credentials, which must agree with the body', async () => {
    const secret = confidential.clientSecret ?? '';
    const grant = {
      grant_type: 'authorization_code',
      code: await codeFor(confidential.clientId),
      redirect_uri: redirect,
    };
    const wrong = await exchange(grant, basic(confidential.clientId, 'nope'));
    expect(wrong.statusCode).toBe(401);
    const otherClient = await exchange(
      { ...grant, client_id: 'someone-else' },
      basic(confidential.clientId, secret),
    );
    expect(otherClient.statusCode).toBe(400);
    const twice = await exchange(
      { ...grant, client_secret: secret },
      basic(confidential.clientId, secret),
    );
    expect(twice.statusCode).toBe(400);
    const malformed = await exchange(grant, { authorization: 'Basic bm8tY29sb24=' });
    expect(malformed.statusCode).toBe(400);
    const right = await exchange(grant, basic(confidential.clientId, secret));
    expect(right.statusCode, right.body).toBe(200);
  });

  it('need a client id one way or the other', async () => {
    const response = await exchange({
      grant_type: 'authorization_code',
      code: 'whatever',
      redirect_uri: redirect,
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('client_id is required');
  });
});
