import type { OAuthApplication } from '@flotilla/shared/auth/oauth';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// A user API key (the "User API key" row of the session kinds of docs/ACCOUNTS.md): it manages keys other
// than user keys, and nothing else that is sensitive, even with the password.

let db: Database;
let app: FastifyInstance;
let rootId = 0;
const password = 'root-password';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  db = await createTestDatabase();
  app = buildServer(createTestContext(db));
  await app.ready();
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "user" ("username", "email", "password_hash") VALUES ('root', 'root@example.com', $1)
     RETURNING "id"`,
    [await hashTestPassword(password)],
  );
  rootId = rows[0]?.id ?? 0;
  await db.query(`INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, 'balena_admin')`, [
    rootId,
  ]);
  await db.query(
    `INSERT INTO "user" ("username", "email", "password_hash") VALUES ('ann', 'ann@example.com', $1)`,
    [await hashTestPassword('ann-password')],
  );
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('a user API key', () => {
  it('may not log in as anyone, authorize applications, or change the password, e-mail or account', async () => {
    const login = await app.inject({
      method: 'POST',
      url: '/login_',
      payload: { username: 'root', password },
    });
    const session = login.body;
    const created = await app.inject({
      method: 'POST',
      url: '/admin/v1/oauth-applications',
      headers: bearer(session),
      payload: { name: 'Grafana', redirect_uri: 'https://app.example/callback' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const clientId = created.json<OAuthApplication>().clientId;
    const minted = await app.inject({
      method: 'POST',
      url: '/api-key/user/full',
      headers: bearer(session),
      payload: { name: 'cli' },
    });
    expect(minted.statusCode, minted.body).toBe(200);
    const key = minted.json<string>();
    const state = async () =>
      (
        await db.query(
          `SELECT (SELECT count(*)::integer FROM "api_key") AS "keys",
                  (SELECT count(*)::integer FROM "oauth_authorization_code") AS "codes",
                  (SELECT count(*)::integer FROM "user_two_factor") AS "two_factor",
                  u."password_hash", u."email", u."pending_email"
             FROM "user" u WHERE u."id" = $1`,
          [rootId],
        )
      ).rows[0];
    const before = await state();
    const attempts = [
      { method: 'PATCH', url: '/login_', payload: { username: 'ann' } },
      {
        method: 'POST',
        url: '/oauth/authorize',
        payload: { client_id: clientId, response_type: 'code' },
      },
      { method: 'POST', url: '/api-key/user/full', payload: { name: 'another' } },
      { method: 'GET', url: '/auth/totp/setup' },
      {
        method: 'PATCH',
        url: '/user/password',
        payload: { currentPassword: password, password: 'a-new-password' },
      },
      { method: 'PATCH', url: '/user/email', payload: { email: 'key@example.com', password } },
      { method: 'POST', url: '/user/v1/delete-account', payload: { password } },
      { method: 'GET', url: '/user/v1/refresh-token' },
    ] as const;
    for (const attempt of attempts) {
      const response = await app.inject({ ...attempt, headers: bearer(key) });
      expect(response.statusCode, `${attempt.method} ${attempt.url}: ${response.body}`).toBe(401);
    }
    expect(await state()).toEqual(before);
    // What it may do: ordinary requests as the user.
    expect((await app.inject({ url: '/actor/v1/whoami', headers: bearer(key) })).statusCode).toBe(
      200,
    );
  });
});
