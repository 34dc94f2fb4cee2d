import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../infra/db/database.js';
import { declaredRoutes } from '../../infra/http/create-app.js';
import { buildServer } from '../../server.js';
import {
  addOrganizationMember,
  createOrganization,
  createUser,
} from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { issueSessionToken } from '../auth/issue-session-token.js';

// access_billing: every billing route of an organization gives nothing (401, no row written) to
// a guest, a member who is not an administrator, a user of another organization and a support
// agent; the platform administrators' billing routes give nothing to an organization
// administrator. The organization's administrator is served.

let db: Database;
let ctx: AppContext;
let app: FastifyInstance;
let organization: number;
const tokens: Record<string, string> = {};

const tables = [
  'subscription',
  'invoice',
  'billing_account',
  'billing_usage_day',
  'us_sales_tax_rate',
];
const counts = async (): Promise<number[]> =>
  Promise.all(
    tables.map(
      async (table) =>
        (await db.query<{ n: number }>(`SELECT count(*)::integer AS "n" FROM "${table}"`)).rows[0]
          ?.n ?? -1,
    ),
  );

const methods = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
type Method = (typeof methods)[number];
const isMethod = (method: string): method is Method => methods.some((known) => known === method);

const call = (route: { method: string; url: string }, token: string | undefined) => {
  if (!isMethod(route.method)) throw new Error(`unexpected method ${route.method}`);
  return app.inject({
    method: route.method,
    url: route.url
      .replace(':id', String(organization))
      .replace(':number', 'FLT-000001')
      .replace(':uuid', '00000000-0000-4000-8000-000000000000'),
    query: { tier: 'pilot' },
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    ...(route.method === 'GET' || route.method === 'DELETE'
      ? {}
      : {
          payload: {
            tier: 'pilot',
            annual: false,
            email: 'x@example.com',
            token_id: 't',
            reference: 'r',
            billing_code: 'pilot-v2',
          },
        }),
  });
};

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = createTestContext(db, { config: { billingEnabled: true } });
  app = buildServer(ctx);
  await app.ready();
  organization = await createOrganization(db, 'Billed');
  const other = await createOrganization(db, 'Other');
  const person = async (
    name: string,
    org: number | undefined,
    role: 'administrator' | 'member',
    platform?: string,
  ) => {
    const user = await createUser(db, name);
    if (org !== undefined) await addOrganizationMember(db, user.userId, org, role);
    if (platform) {
      await db.query(`INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, $2)`, [
        user.userId,
        platform,
      ]);
    }
    tokens[name] = await issueSessionToken(ctx, db, user.userId);
  };
  await person('admin', organization, 'administrator');
  await person('member', organization, 'member');
  await person('outsider', other, 'administrator');
  await person('agent', undefined, 'member', 'support_agent');
});
afterAll(async () => {
  await app.close();
  await db.close();
});

describe('billing routes and access_billing', () => {
  it('refuse everyone but the organization administrator, and write nothing', async () => {
    // The support check is the help desk's, for every member (features/support); the free
    // allowance is every member's too (below).
    const routes = declaredRoutes(app).filter(
      (route) =>
        route.url.startsWith('/billing/v1/account/') &&
        !route.url.endsWith('/can-access-support') &&
        !route.url.endsWith('/free-allowance'),
    );
    expect(routes.length).toBeGreaterThanOrEqual(12);
    const before = await counts();
    for (const route of routes) {
      for (const who of [undefined, 'member', 'outsider', 'agent']) {
        const response = await call(route, who === undefined ? undefined : tokens[who]);
        expect(response.statusCode, `${route.method} ${route.url} as ${who ?? 'guest'}`).toBe(401);
      }
    }
    expect(await counts()).toEqual(before);
  });

  it('serve the administrator', async () => {
    for (const path of ['', '/plan', '/usage', '/invoices', '/info', '/can-access-support']) {
      const response = await call(
        { method: 'GET', url: `/billing/v1/account/:id${path}` },
        tokens.admin,
      );
      expect(response.statusCode, path).toBe(200);
    }
  });

  it("tell every member the free plan's allowance, and nobody else", async () => {
    const url = '/billing/v1/account/:id/free-allowance';
    for (const who of ['admin', 'member']) {
      const response = await call({ method: 'GET', url }, tokens[who]);
      expect(response.statusCode, who).toBe(200);
      expect(response.json()).toEqual({ allowance: 10, devices: 0, frozen: 0 });
    }
    for (const who of [undefined, 'outsider', 'agent']) {
      const response = await call(
        { method: 'GET', url },
        who === undefined ? undefined : tokens[who],
      );
      expect(response.statusCode, who ?? 'guest').toBe(401);
    }
    // On any other plan there is no allowance to warn about.
    const upgraded = await call(
      { method: 'PATCH', url: '/billing/v1/account/:id/plan' },
      tokens.admin,
    );
    expect(upgraded.statusCode, upgraded.body).toBe(200);
    const paid = await call({ method: 'GET', url }, tokens.member);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toBeNull();
  });

  it("keep the platform administrators' billing routes from an organization administrator", async () => {
    const routes = declaredRoutes(app).filter((route) =>
      route.url.startsWith('/billing/v1/admin/'),
    );
    expect(routes).toHaveLength(5);
    const before = await counts();
    for (const route of routes) {
      expect((await call(route, tokens.admin)).statusCode, route.url).toBe(401);
    }
    expect(await counts()).toEqual(before);
  });
});
