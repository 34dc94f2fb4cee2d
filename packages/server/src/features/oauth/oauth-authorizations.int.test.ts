import type { OAuthApplication, OAuthAuthorizeAnswer } from '@flotilla/shared/auth/oauth';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Database } from '../../infra/db/database.js';
import { registerODataRoutes } from '../../infra/odata/register-odata-routes.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { registerAuth } from '../auth/register-auth.js';
import { registerPlatformAdmin } from '../platform-admin/register-platform-admin.js';
import { registerOAuth } from './register-oauth.js';

// Stored authorizations (migration 0024) and oauth_application on /v7: who reads, who revokes,
// and what revoking ends.

let db: Database;
let app: FastifyInstance;
let admin: string;
let ann: string;
let bob: string;
let annId: number;
let grafana: OAuthApplication;
let wiki: OAuthApplication;

const bearer = (token: string | undefined) =>
  token === undefined ? {} : { authorization: `Bearer ${token}` };

const createAccount = async (username: string, platformAdmin = false) => {
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
  return { id, token: login.body };
};

const v7 = async (token: string | undefined, path: string, method = 'GET', payload?: object) => {
  const response = await app.inject({
    method:
      method === 'GET'
        ? 'GET'
        : method === 'POST'
          ? 'POST'
          : method === 'PATCH'
            ? 'PATCH'
            : 'DELETE',
    url: `/v7/${path}`,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload }),
  });
  return { status: response.statusCode, text: response.body };
};

const rowsOf = <Row>(text: string): Row[] => (JSON.parse(text) as { d: Row[] }).d;

const register = async (name: string, redirectUri: string): Promise<OAuthApplication> => {
  const response = await app.inject({
    method: 'POST',
    url: '/admin/v1/oauth-applications',
    headers: bearer(admin),
    payload: { name, redirect_uri: redirectUri, description: `${name} dashboards` },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<OAuthApplication>();
};

const allow = async (token: string, application: OAuthApplication): Promise<string> => {
  const response = await app.inject({
    method: 'POST',
    url: '/oauth/authorize',
    headers: bearer(token),
    payload: { client_id: application.clientId, response_type: 'code' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<OAuthAuthorizeAnswer>().code;
};

const exchange = (code: string, application: OAuthApplication) =>
  app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: {
      grant_type: 'authorization_code',
      code,
      client_id: application.clientId,
      redirect_uri: application.redirectUri,
    },
  });

type Authorization = { id: number; belongs_to__user: { __id: number } };

const authorizationsOf = async (token: string): Promise<Authorization[]> => {
  const response = await v7(token, 'oauth_application_authorization?$orderby=id');
  expect(response.status, response.text).toBe(200);
  return rowsOf<Authorization>(response.text);
};

beforeAll(async () => {
  db = await createTestDatabase();
  const ctx = createTestContext(db, { now: () => new Date() });
  app = await createTestApp(ctx, registerAuth, registerPlatformAdmin, registerOAuth, (a, c) => {
    registerODataRoutes(a, c);
  });
  admin = (await createAccount('root', true)).token;
  const annAccount = await createAccount('ann');
  ann = annAccount.token;
  annId = annAccount.id;
  bob = (await createAccount('bob')).token;
  grafana = await register('Grafana', 'https://grafana.example/callback');
  wiki = await register('Wiki', 'https://wiki.example/callback');
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('oauth_application on /v7', () => {
  it('any signed-in user reads the public fields, by id or client_id; guests get 401', async () => {
    const list = await v7(bob, 'oauth_application?$orderby=id');
    expect(list.status, list.text).toBe(200);
    expect(rowsOf<Record<string, unknown>>(list.text)).toEqual([
      {
        id: grafana.id,
        created_at: expect.any(String),
        client_id: grafana.clientId,
        name: 'Grafana',
        description: 'Grafana dashboards',
        redirect_uri: 'https://grafana.example/callback',
      },
      expect.objectContaining({ id: wiki.id, name: 'Wiki' }),
    ]);
    const byClientId = await v7(
      bob,
      `oauth_application(client_id='${wiki.clientId}')?$select=name`,
    );
    expect(rowsOf(byClientId.text)).toEqual([{ name: 'Wiki' }]);
    expect((await v7(undefined, 'oauth_application')).status).toBe(401);
  });

  it('does not serve who registered an application, not even through a navigation', async () => {
    for (const token of [bob, admin]) {
      expect((await v7(token, 'oauth_application?$select=is_created_by__user')).status).toBe(400);
      expect((await v7(token, 'oauth_application?$expand=is_created_by__user')).status).toBe(400);
      expect(
        (await v7(token, `oauth_application?$filter=is_created_by__user ne null`)).status,
      ).toBe(400);
    }
  });

  it('is written by nobody through /v7, platform administrators included', async () => {
    const before = await db.query('SELECT "name" FROM "oauth_application" ORDER BY "id"');
    for (const token of [admin, bob]) {
      const created = await v7(token, 'oauth_application', 'POST', {
        client_id: 'x',
        name: 'Mine',
        redirect_uri: 'https://mine.example/',
      });
      expect(created.status, created.text).toBe(401);
      const renamed = await v7(token, `oauth_application(${grafana.id})`, 'PATCH', {
        name: 'Evil',
      });
      // Every field is read-only: refused as a write of a field nobody may write.
      expect([400, 401], renamed.text).toContain(renamed.status);
      const removed = await v7(token, `oauth_application(${grafana.id})`, 'DELETE');
      expect(removed.status, removed.text).toBe(401);
    }
    const after = await db.query('SELECT "name" FROM "oauth_application" ORDER BY "id"');
    expect(after.rows).toEqual(before.rows);
  });
});

describe('stored authorizations', () => {
  it('are recorded once per user and application by allowing, and read by their owner alone', async () => {
    await allow(ann, grafana);
    await allow(ann, grafana);
    await allow(bob, wiki);
    const anns = await authorizationsOf(ann);
    expect(anns).toEqual([expect.objectContaining({ belongs_to__user: { __id: annId } })]);
    const bobs = await authorizationsOf(bob);
    expect(bobs).toHaveLength(1);
    expect(bobs[0]?.id).not.toBe(anns[0]?.id);
    // Bob sees none of Ann's: not by id, not counted, not expanded from the application.
    const byId = await v7(bob, `oauth_application_authorization(${anns[0]?.id})`);
    expect(rowsOf(byId.text)).toEqual([]);
    const count = await v7(bob, 'oauth_application_authorization/$count');
    expect(JSON.parse(count.text)).toEqual({ d: 1 });
    const expanded = await v7(
      bob,
      `oauth_application?$orderby=id&$select=name&$expand=oauth_application_authorization($select=id)`,
    );
    expect(rowsOf(expanded.text)).toEqual([
      { name: 'Grafana', oauth_application_authorization: [] },
      { name: 'Wiki', oauth_application_authorization: [{ id: bobs[0]?.id }] },
    ]);
    // The application through the authorization, as the preferences list reads it.
    const listed = await v7(
      ann,
      'oauth_application_authorization?$select=id&$expand=is_for__oauth_application($select=name)',
    );
    expect(rowsOf(listed.text)).toEqual([
      { id: anns[0]?.id, is_for__oauth_application: [{ name: 'Grafana' }] },
    ]);
    // The consent page's read (OAuthConsentPage): by client id, with the caller's authorization.
    const consent = `oauth_application(client_id='${grafana.clientId}')?$select=id,client_id,name,description,redirect_uri&$expand=oauth_application_authorization($select=id,created_at)`;
    expect(rowsOf((await v7(ann, consent)).text)).toEqual([
      expect.objectContaining({
        name: 'Grafana',
        oauth_application_authorization: [{ id: anns[0]?.id, created_at: expect.any(String) }],
      }),
    ]);
    expect(rowsOf((await v7(bob, consent)).text)).toEqual([
      expect.objectContaining({ name: 'Grafana', oauth_application_authorization: [] }),
    ]);
    // Not even a platform administrator reads Ann's (own rows only).
    expect(rowsOf((await v7(admin, 'oauth_application_authorization')).text)).toEqual([]);
    expect((await v7(undefined, 'oauth_application_authorization')).status).toBe(401);
  });

  it('are not created or changed through /v7', async () => {
    const created = await v7(bob, 'oauth_application_authorization', 'POST', {
      belongs_to__user: annId,
      is_for__oauth_application: wiki.id,
    });
    expect(created.status, created.text).toBe(401);
    const [own] = await authorizationsOf(bob);
    const moved = await v7(bob, `oauth_application_authorization(${own?.id})`, 'PATCH', {
      is_for__oauth_application: grafana.id,
    });
    expect([400, 401]).toContain(moved.status);
    const { rows } = await db.query(
      'SELECT 1 FROM "oauth_application_authorization" WHERE "is_for__oauth_application" = $1',
      [grafana.id],
    );
    expect(rows).toHaveLength(1);
  });

  it('are revoked by their owner only, which ends the unused codes of that user and application', async () => {
    const annsCode = await allow(ann, grafana);
    const annsOtherCode = await allow(ann, wiki);
    const bobsCode = await allow(bob, grafana);
    const [annsGrafana] = (await authorizationsOf(ann)).filter((row) => row.id !== undefined);
    const unusedCodes = () =>
      db.query('SELECT "id" FROM "oauth_authorization_code" WHERE "used_at" IS NULL ORDER BY "id"');
    const codesBefore = (await unusedCodes()).rows;
    const refused = await v7(bob, `oauth_application_authorization(${annsGrafana?.id})`, 'DELETE');
    // Like every /v7 delete, a row the caller cannot see is simply not matched.
    expect([200, 401, 404], refused.text).toContain(refused.status);
    expect(await authorizationsOf(ann)).toHaveLength(2);
    expect((await unusedCodes()).rows).toEqual(codesBefore);

    const revoked = await v7(ann, `oauth_application_authorization(${annsGrafana?.id})`, 'DELETE');
    expect(revoked.status, revoked.text).toBe(200);
    expect((await authorizationsOf(ann)).map((row) => row.id)).not.toContain(annsGrafana?.id);
    const dead = await exchange(annsCode, grafana);
    expect(dead.statusCode).toBe(400);
    expect(dead.body).toContain('invalid_grant');
    // Another application's code and another user's code for the same application still work.
    expect((await exchange(annsOtherCode, wiki)).statusCode).toBe(200);
    expect((await exchange(bobsCode, grafana)).statusCode).toBe(200);
  });

  it('go with their application', async () => {
    const removal = await app.inject({
      method: 'DELETE',
      url: `/admin/v1/oauth-applications/${wiki.id}`,
      headers: bearer(admin),
    });
    expect(removal.statusCode).toBe(204);
    const { rows } = await db.query(
      'SELECT 1 FROM "oauth_application_authorization" WHERE "is_for__oauth_application" = $1',
      [wiki.id],
    );
    expect(rows).toEqual([]);
  });
});
