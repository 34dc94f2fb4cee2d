import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import {
  addOrganizationMember,
  createFleet,
  createOrganization,
  createUser,
} from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { issueSessionToken } from '../auth/issue-session-token.js';

// The builder's own releases (an uploaded project, a project's URL, balena push) are refused for
// a frozen organization before anything is downloaded or built, with the reason /v7 gives.

const frozenMessage =
  'This organization is frozen: its devices get no new releases until its past-due invoices are paid';

let db: Database;
let ctx: AppContext;
let app: FastifyInstance;
let token: string;
let fleet: { id: number; slug: string };
let organization: number;

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = createTestContext(db, { config: { billingEnabled: true } });
  app = buildServer(ctx);
  await app.ready();
  organization = await createOrganization(db, 'Frost');
  const owner = await createUser(db, 'frost-owner');
  await addOrganizationMember(db, owner.userId, organization, 'administrator');
  fleet = await createFleet(db, organization, 'Things');
  token = await issueSessionToken(ctx, db, owner.userId);
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

const builds = () => [
  app.inject({
    method: 'POST',
    url: `/builder/v1/applications/${fleet.id}/releases`,
    headers: { authorization: `Bearer ${token}` },
    payload: { url: 'http://127.0.0.1:9/never-fetched.tar' },
  }),
  app.inject({
    method: 'POST',
    url: `/builder/v1/applications/${fleet.id}/releases`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-tar' },
    payload: Buffer.alloc(1024),
  }),
  app.inject({
    method: 'POST',
    url: `/v3/build?slug=${encodeURIComponent(fleet.slug)}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-tar' },
    payload: Buffer.alloc(1024),
  }),
];

describe('builds of a frozen organization', () => {
  it('are refused with the freezing reason, and go on once it is unfrozen', async () => {
    await db.query(`UPDATE "organization" SET "is_frozen" = true WHERE "id" = $1`, [organization]);
    for (const response of await Promise.all(builds())) {
      expect(response.statusCode).toBe(400);
      expect(response.body).toBe(frozenMessage);
    }
    expect((await db.query(`SELECT 1 FROM "release"`)).rowCount).toBe(0);
    await db.query(`UPDATE "organization" SET "is_frozen" = false WHERE "id" = $1`, [organization]);
    for (const response of await Promise.all(builds())) {
      expect(response.body).not.toBe(frozenMessage);
    }
  });
});
