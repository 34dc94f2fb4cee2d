import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Database } from '../../infra/db/database.js';
import { declaredRoutes } from '../../infra/http/create-app.js';
import { buildServer } from '../../server.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// Every platform-administrator route of the full server — each /admin/ route and login-as — gives
// nothing to anyone else: 401 (the API's answer to a forbidden action) for a guest, a signed-in
// user and a support agent, and no write.

let db: Database;
let app: FastifyInstance;

const sessionOf = async (username: string, role?: string): Promise<string> => {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "user" ("username", "email", "password_hash") VALUES ($1, $2, $3) RETURNING "id"`,
    [username, `${username}@example.com`, await hashTestPassword(`${username}-password`)],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('no user');
  if (role) {
    await db.query(`INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, $2)`, [id, role]);
  }
  const login = await app.inject({
    method: 'POST',
    url: '/login_',
    payload: { username, password: `${username}-password` },
  });
  expect(login.statusCode).toBe(200);
  return login.body;
};

beforeAll(async () => {
  db = await createTestDatabase();
  app = buildServer(createTestContext(db));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.close();
});

// A concrete URL for a route pattern (its parameters filled in).
const concrete = (url: string): string => url.replace(/:[A-Za-z]+/g, '1');

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof methods)[number];
const isMethod = (method: string): method is Method => methods.some((known) => known === method);

const call = (route: { method: string; url: string }, token: string | undefined) => {
  if (!isMethod(route.method)) throw new Error(`unexpected method ${route.method}`);
  return app.inject({
    method: route.method,
    url: concrete(route.url),
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    // A body any of them would accept from an administrator.
    ...(route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH'
      ? { payload: { username: 'member', name: 'x', redirect_uri: 'https://x.example/' } }
      : {}),
  });
};

const writableTables = [
  'oauth_application',
  'oauth_authorization_code',
  'user_platform_role',
  'organization',
  'application',
  'release',
  'status_notice',
  'feature_flag_setting',
  'error_report',
];
const counts = async (): Promise<number[]> =>
  Promise.all(
    writableTables.map(
      async (table) =>
        (await db.query<{ n: number }>(`SELECT count(*)::integer AS "n" FROM "${table}"`)).rows[0]
          ?.n ?? -1,
    ),
  );

describe('platform administrator routes', () => {
  it('answer 401 to everyone but a platform administrator, and write nothing', async () => {
    const routes = declaredRoutes(app).filter(
      (route) =>
        route.url.startsWith('/admin/') || (route.method === 'PATCH' && route.url === '/login_'),
    );
    // Users, login-as, the outbox and the OAuth applications at least.
    expect(routes.length).toBeGreaterThanOrEqual(6);
    const member = await sessionOf('member');
    const agent = await sessionOf('agent', 'support_agent');
    const admin = await sessionOf('admin', 'balena_admin');
    const before = await counts();
    for (const route of routes) {
      for (const token of [undefined, member, agent]) {
        const response = await call(route, token);
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
      }
    }
    expect(await counts()).toEqual(before);
    // The same requests are not refused to an administrator (the check above is about who asks).
    for (const route of routes) {
      const response = await call(route, admin);
      expect(response.statusCode, `${route.method} ${route.url} as admin`).not.toBe(401);
    }
  });
});
