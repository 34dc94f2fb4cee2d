import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import {
  addOrganizationMember,
  createOrganization,
  createUser,
} from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import type { CataloguePlan } from '@flotilla/shared/billing/plan-table';

// The plan catalogue: every signed-in user reads it; only a platform administrator changes it
// (an organization administrator or member gets 401 and changes nothing), with validation.

let db: Database;
let ctx: AppContext;
let app: FastifyInstance;
const tokens: Record<string, string> = {};

const pilotRow = async () =>
  (
    await db.query<{ monthly_price: number; devices: number | null }>(
      `SELECT p."monthly_price", (SELECT pf."quantity" FROM "plan_feature" pf
         JOIN "feature" f ON f."id" = pf."provides__feature"
         WHERE pf."plan" = p."id" AND f."slug" = 'device:any') AS "devices"
       FROM "plan" p WHERE p."billing_code" = 'pilot-v2'`,
    )
  ).rows[0];

const patch = (token: string | undefined, body: Record<string, unknown>, code = 'pilot-v2') =>
  app.inject({
    method: 'PATCH',
    url: `/billing/v1/admin/plans/${code}`,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    payload: body,
  });

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = createTestContext(db, { config: { billingEnabled: true } });
  app = buildServer(ctx);
  await app.ready();
  const organization = await createOrganization(db, 'Billed');
  const person = async (name: string, role: 'administrator' | 'member' | null, platform = '') => {
    const user = await createUser(db, name);
    if (role) await addOrganizationMember(db, user.userId, organization, role);
    if (platform) {
      await db.query(`INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, $2)`, [
        user.userId,
        platform,
      ]);
    }
    tokens[name] = await issueSessionToken(ctx, db, user.userId);
  };
  await person('orgadmin', 'administrator');
  await person('member', 'member');
  await person('root', null, 'balena_admin');
});
afterAll(async () => {
  await app.close();
  await db.close();
});

describe('the plan catalogue', () => {
  it('is read by any signed-in user, not by a guest', async () => {
    expect((await app.inject({ url: '/billing/v1/plans' })).statusCode).toBe(401);
    const response = await app.inject({
      url: '/billing/v1/plans',
      headers: { authorization: `Bearer ${tokens.member}` },
    });
    expect(response.statusCode).toBe(200);
    const plans = response.json<CataloguePlan[]>();
    const pilot = plans.find((plan) => plan.billing_code === 'pilot-v2');
    expect(pilot).toMatchObject({ monthly_price: 34900, can_self_serve: true });
    expect(pilot?.features['device:any']).toBe(50);
    expect(pilot?.support?.title).toBeTruthy();
  });

  it('is changed by no one but a platform administrator', async () => {
    const before = await pilotRow();
    for (const who of [undefined, 'member', 'orgadmin']) {
      const response = await patch(who === undefined ? undefined : tokens[who], {
        monthly_price: 1,
      });
      expect(response.statusCode, who ?? 'guest').toBe(401);
    }
    expect(await pilotRow()).toEqual(before);
  });

  it('takes prices, the device allowance and features from a platform administrator', async () => {
    const response = await patch(tokens.root, {
      monthly_price: 39900,
      features: { 'device:any': 60, saml_access: 1 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<CataloguePlan>()).toMatchObject({
      monthly_price: 39900,
      features: { 'device:any': 60, saml_access: 1 },
    });
    expect(await pilotRow()).toEqual({ monthly_price: 39900, devices: 60 });
    const removed = await patch(tokens.root, { features: { saml_access: 0 } });
    expect(removed.json<CataloguePlan>().features.saml_access).toBeUndefined();
  });

  it('refuses bad input with a message and writes nothing', async () => {
    const before = await pilotRow();
    const negative = await patch(tokens.root, { monthly_price: -5 });
    expect(negative.statusCode).toBe(400);
    expect(negative.body).toMatch(/Monthly price cannot be negative/);
    const unknown = await patch(tokens.root, { monthly_price: 5, features: { nope: 3 } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toMatch(/There is no feature nope/);
    expect((await patch(tokens.root, { monthly_price: 5 }, 'gold')).statusCode).toBe(404);
    expect(await pilotRow()).toEqual(before);
  });
});
