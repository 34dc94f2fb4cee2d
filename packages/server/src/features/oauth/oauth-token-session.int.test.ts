import {
  oauthAccessTokenLifetimeSeconds,
  type OAuthApplication,
} from '@flotilla/shared/auth/oauth';
import type { OAuthAuthorizeAnswer } from '@flotilla/shared/auth/oauth';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// An OAuth application's access token is the user's session for a third party: never a password
// login (nothing that takes the account over or ends it), alive only while the user's
// authorization is and for a bounded time that refreshing does not move.

let db: Database;
let app: FastifyInstance;
let clock: Date;
let application: OAuthApplication;
let rootPassword: string;
let rootId: number;
const redirect = 'https://app.example/callback';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const login = async (username: string, password: string): Promise<string> => {
  const response = await app.inject({
    method: 'POST',
    url: '/login_',
    payload: { username, password },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.body;
};

// The admin's own password session and an OAuth token the admin gave the application.
const sessions = async (): Promise<{ session: string; oauth: string }> => {
  const session = await login('root', rootPassword);
  const allowed = await app.inject({
    method: 'POST',
    url: '/oauth/authorize',
    headers: bearer(session),
    payload: { client_id: application.clientId, response_type: 'code' },
  });
  expect(allowed.statusCode, allowed.body).toBe(200);
  const exchanged = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: {
      grant_type: 'authorization_code',
      code: allowed.json<OAuthAuthorizeAnswer>().code,
      client_id: application.clientId,
      redirect_uri: redirect,
    },
  });
  expect(exchanged.statusCode, exchanged.body).toBe(200);
  const body = exchanged.json<{ access_token: string; expires_in: number }>();
  expect(body.expires_in).toBe(oauthAccessTokenLifetimeSeconds);
  return { session, oauth: body.access_token };
};

const whoami = (token: string) => app.inject({ url: '/actor/v1/whoami', headers: bearer(token) });
const refresh = (token: string) =>
  app.inject({ url: '/user/v1/refresh-token', headers: bearer(token) });

const snapshot = async () =>
  (
    await db.query(
      `SELECT (SELECT count(*)::integer FROM "api_key") AS "keys",
              (SELECT count(*)::integer FROM "user_two_factor") AS "two_factor",
              (SELECT count("enabled_at")::integer FROM "user_two_factor") AS "two_factor_enabled",
              (SELECT count(*)::integer FROM "user_recovery_code") AS "recovery_codes",
              (SELECT count(*)::integer FROM "oauth_authorization_code") AS "codes",
              (SELECT count(*)::integer FROM "user") AS "users",
              (SELECT count(*)::integer FROM "user__has__public_key") AS "ssh_keys",
              (SELECT "jwt_secret" FROM "user" WHERE "id" = $1) AS "jwt_secret",
              (SELECT "password_hash" FROM "user" WHERE "id" = $1) AS "password_hash",
              (SELECT "email" FROM "user" WHERE "id" = $1) AS "email",
              (SELECT "pending_email" FROM "user" WHERE "id" = $1) AS "pending_email"`,
      [rootId],
    )
  ).rows[0];

beforeAll(async () => {
  db = await createTestDatabase();
  clock = new Date('2026-11-24T10:00:00Z');
  app = buildServer(createTestContext(db, { now: () => clock }));
  await app.ready();
  rootPassword = 'root-password';
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "user" ("username", "email", "password_hash") VALUES ('root', 'root@example.com', $1)
     RETURNING "id"`,
    [await hashTestPassword(rootPassword)],
  );
  rootId = rows[0]?.id ?? 0;
  await db.query(`INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, 'balena_admin')`, [
    rootId,
  ]);
  await db.query(
    `INSERT INTO "user" ("username", "email", "password_hash") VALUES ('ann', 'ann@example.com', $1)`,
    [await hashTestPassword('ann-password')],
  );
  const created = await app.inject({
    method: 'POST',
    url: '/admin/v1/oauth-applications',
    headers: bearer(await login('root', rootPassword)),
    payload: { name: 'Grafana', redirect_uri: redirect },
  });
  expect(created.statusCode, created.body).toBe(201);
  application = created.json<OAuthApplication>();
});

afterAll(async () => {
  await app.close();
  await db.close();
});

beforeEach(async () => {
  await db.query('DELETE FROM "rate_limit_hit"');
});

describe('an OAuth access token', () => {
  it('works as the user for ordinary requests', async () => {
    const { oauth } = await sessions();
    expect((await whoami(oauth)).statusCode).toBe(200);
    expect(decodeJwt(oauth)).toMatchObject({ id: rootId, authTime: 0 });
  });

  it('is never a fresh authentication and may do nothing sensitive, writing nothing', async () => {
    const { session, oauth } = await sessions();
    // A key of the user's own, made while fresh, for the revocation attempt below.
    const own = await app.inject({
      method: 'POST',
      url: '/api-key/user/full',
      headers: bearer(session),
      payload: { name: 'own' },
    });
    expect(own.statusCode, own.body).toBe(200);
    const keyId =
      (await db.query<{ id: number }>('SELECT max("id") AS "id" FROM "api_key"')).rows[0]?.id ?? 0;
    // A setup key the user asked for and has not confirmed yet: the token may not confirm it.
    const setup = await app.inject({ url: '/auth/totp/setup', headers: bearer(session) });
    expect(setup.statusCode, setup.body).toBe(200);
    const before = await snapshot();
    const userKey = { actorType: 'user', actorTypeId: rootId, roles: ['named-user-api-key'] };
    const attempts = [
      { method: 'POST', url: '/api-key/user/full', payload: { name: 'app' } },
      { method: 'POST', url: '/api-key/v1', payload: userKey },
      { method: 'POST', url: '/api-key/v2', payload: userKey },
      { method: 'DELETE', url: `/v7/api_key(${keyId})` },
      { method: 'PATCH', url: `/v7/api_key(${keyId})`, payload: { name: 'renamed' } },
      { method: 'GET', url: '/auth/totp/setup' },
      { method: 'POST', url: '/auth/totp/verify', payload: { code: '123456' } },
      { method: 'POST', url: '/auth/totp/disable', payload: { password: rootPassword } },
      { method: 'POST', url: '/auth/v1/2fa-recover/create' },
      {
        method: 'PATCH',
        url: '/user/password',
        payload: { currentPassword: rootPassword, password: 'a-new-password' },
      },
      {
        method: 'PATCH',
        url: '/user/email',
        payload: { email: 'app@example.com', password: rootPassword },
      },
      { method: 'POST', url: '/user/v1/delete-account', payload: { password: rootPassword } },
      {
        method: 'POST',
        url: '/oauth/authorize',
        payload: { client_id: application.clientId, response_type: 'code' },
      },
      { method: 'PATCH', url: '/login_', payload: { username: 'ann' } },
      // An SSH key is lasting access to the devices' terminals; signing out elsewhere is the
      // person's to do.
      {
        method: 'POST',
        url: '/v7/user__has__public_key',
        payload: {
          user: rootId,
          title: 'app',
          public_key:
            'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOZKV2tYWeZ4B8u0XF0u1f9Oye4RqbFf72dDqJoq0pQk app',
        },
      },
      { method: 'POST', url: '/user/v1/public-keys/import', payload: { username: 'octocat' } },
      { method: 'POST', url: '/logout-others' },
    ] as const;
    for (const attempt of attempts) {
      const response = await app.inject({ ...attempt, headers: bearer(oauth) });
      expect(response.statusCode, `${attempt.method} ${attempt.url}: ${response.body}`).toBe(401);
    }
    expect(await snapshot()).toEqual(before);
    const { rows } = await db.query('SELECT "name" FROM "api_key" WHERE "id" = $1', [keyId]);
    expect(rows).toEqual([{ name: 'own' }]);
    // Giving the password through the token's refresh makes it no fresher.
    const renewed = await app.inject({
      method: 'POST',
      url: '/user/v1/refresh-token',
      headers: bearer(oauth),
      payload: { password: rootPassword },
    });
    expect(renewed.statusCode).toBe(200);
    const again = await app.inject({
      method: 'POST',
      url: '/api-key/user/full',
      headers: bearer(renewed.body),
      payload: { name: 'app' },
    });
    expect(again.statusCode).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it('ends when the user revokes the application, and refreshes no more', async () => {
    const { session, oauth } = await sessions();
    const refreshed = await refresh(oauth);
    expect(refreshed.statusCode).toBe(200);
    // Cached as a working token before the revocation.
    expect((await whoami(oauth)).statusCode).toBe(200);
    const { rows } = await db.query<{ id: number }>(
      `SELECT "id" FROM "oauth_application_authorization"
        WHERE "belongs_to__user" = $1 AND "is_for__oauth_application" = $2`,
      [rootId, application.id],
    );
    const revoked = await app.inject({
      method: 'DELETE',
      url: `/v7/oauth_application_authorization(${rows[0]?.id})`,
      headers: bearer(session),
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    for (const token of [oauth, refreshed.body]) {
      expect((await whoami(token)).statusCode).toBe(401);
      expect((await refresh(token)).statusCode).toBe(401);
    }
    // The user's own session goes on.
    expect((await whoami(session)).statusCode).toBe(200);
  });

  it("ends with 'log out other sessions' and with a password change", async () => {
    const first = await sessions();
    const ended = await app.inject({
      method: 'POST',
      url: '/logout-others',
      headers: bearer(first.session),
    });
    expect(ended.statusCode).toBe(200);
    expect((await whoami(first.oauth)).statusCode).toBe(401);

    const second = await sessions();
    const changed = await app.inject({
      method: 'PATCH',
      url: '/user/password',
      headers: bearer(second.session),
      payload: { currentPassword: rootPassword, password: 'root-password-2' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    rootPassword = 'root-password-2';
    expect((await whoami(second.oauth)).statusCode).toBe(401);
  });

  it('lives a bounded time that refreshing never extends', async () => {
    const { oauth } = await sessions();
    const issuedAt = Math.floor(clock.getTime() / 1000);
    expect(decodeJwt(oauth).exp).toBe(issuedAt + oauthAccessTokenLifetimeSeconds);
    clock = new Date(clock.getTime() + (oauthAccessTokenLifetimeSeconds - 60) * 1000);
    const refreshed = await refresh(oauth);
    expect(refreshed.statusCode).toBe(200);
    expect(decodeJwt(refreshed.body)).toMatchObject({
      exp: issuedAt + oauthAccessTokenLifetimeSeconds,
    });
    clock = new Date(clock.getTime() + 60_000);
    expect((await whoami(refreshed.body)).statusCode).toBe(401);
    expect((await refresh(refreshed.body)).statusCode).toBe(401);
  });
});
