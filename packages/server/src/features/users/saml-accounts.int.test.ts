import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { registerODataRoutes } from '../../infra/odata/register-odata-routes.js';
import {
  addOrganizationMember,
  createOrganization,
  createUser,
  type UserFixture,
} from '../../test-support/fixtures.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { registerAuth } from '../auth/register-auth.js';

// v7 saml_account (balena-sdk's typings: id, belongs_to__user,
// was_generated_by__identity_provider, remote_id, display_name), reached from the user through
// owns__saml_account. The owner reads their rows; a fellow member of an organization sees that
// one exists (the members list's SAML badge) but not its remote id, name or date; anyone else sees
// nothing; nobody writes them through /v7 (SAML sign-in creates them, a later feature).
let db: Database;
let app: FastifyInstance;
let providerId: number;
let ann: UserFixture;
let ben: UserFixture;
let cat: UserFixture;
const tokens = new Map<number, string>();

const v7 = (
  who: UserFixture | null,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) => {
  const token = who ? tokens.get(who.userId) : undefined;
  return app.inject({
    method,
    url: `/v7${url}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload ? { payload } : {}),
  });
};

const rowsOf = (response: { json: <T>() => T }): Record<string, unknown>[] =>
  response.json<{ d: Record<string, unknown>[] }>().d;

beforeAll(async () => {
  db = await createTestDatabase();
  const ctx = createTestContext(db);
  app = await createTestApp(ctx, registerAuth, registerODataRoutes);
  ann = await createUser(db, 'ann');
  ben = await createUser(db, 'ben');
  cat = await createUser(db, 'cat');
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "identity_provider" ("sso_identifier", "entry_point", "issuer", "certificate")
     VALUES ('acme-sso', 'https://idp.example.com/sso', 'acme', 'CERT') RETURNING "id"`,
  );
  providerId = rows[0]?.id ?? 0;
  await db.query(
    `INSERT INTO "saml_account" ("belongs_to__user", "was_generated_by__identity_provider",
                                 "remote_id", "display_name")
     VALUES ($1, $2, 'ann@acme', 'Ann A.')`,
    [ann.userId, providerId],
  );
  // Ann and Ben share an organization; Cat shares nothing with either.
  const organization = await createOrganization(db, 'acme');
  await addOrganizationMember(db, ann.userId, organization, 'member');
  await addOrganizationMember(db, ben.userId, organization, 'member');
  for (const user of [ann, ben, cat]) {
    tokens.set(user.userId, await issueSessionToken(ctx, db, user.userId));
  }
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('v7 saml_account', () => {
  it('serves the owner their accounts, also expanded from their user and counted', async () => {
    const own = await v7(ann, 'GET', '/saml_account');
    expect(own.statusCode).toBe(200);
    expect(rowsOf(own).map(({ id: _id, ...rest }) => rest)).toEqual([
      {
        // Not v7: when it was linked (migration 0027).
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        belongs_to__user: { __id: ann.userId },
        was_generated_by__identity_provider: { __id: providerId },
        remote_id: 'ann@acme',
        display_name: 'Ann A.',
      },
    ]);
    expect((await v7(ann, 'GET', '/saml_account/$count')).json()).toEqual({ d: 1 });
    const expanded = await v7(
      ann,
      'GET',
      `/user(${ann.userId})?$select=id&$expand=owns__saml_account($select=remote_id)`,
    );
    expect(expanded.json()).toEqual({
      d: [{ id: ann.userId, owns__saml_account: [{ remote_id: 'ann@acme' }] }],
    });
    const counted = await v7(
      ann,
      'GET',
      `/user(${ann.userId})?$select=id&$expand=owns__saml_account/$count`,
    );
    expect(counted.json()).toEqual({ d: [{ id: ann.userId, owns__saml_account: 1 }] });
  });

  it('shows a stranger nothing: not listed, filtered, counted or expanded', async () => {
    expect(rowsOf(await v7(cat, 'GET', '/saml_account'))).toEqual([]);
    const filtered = await v7(
      cat,
      'GET',
      `/saml_account?$filter=belongs_to__user eq ${ann.userId}`,
    );
    expect(rowsOf(filtered)).toEqual([]);
    expect((await v7(cat, 'GET', '/saml_account/$count')).json()).toEqual({ d: 0 });
    // Ann's user row is not Cat's to read, so neither is anything expanded from it.
    const expanded = await v7(
      cat,
      'GET',
      `/user(${ann.userId})?$select=id&$expand=owns__saml_account`,
    );
    expect(rowsOf(expanded)).toEqual([]);
    const ownExpanded = await v7(
      cat,
      'GET',
      `/user(${cat.userId})?$select=id&$expand=owns__saml_account/$count`,
    );
    expect(ownExpanded.json()).toEqual({ d: [{ id: cat.userId, owns__saml_account: 0 }] });
    // Forbidden to a guest: 401, as every refused permission on /v7 (wire contract).
    expect((await v7(null, 'GET', '/saml_account')).statusCode).toBe(401);
  });

  it('tells a fellow member that the account exists, not its remote id, name or date', async () => {
    const counted = await v7(
      ben,
      'GET',
      `/user(${ann.userId})?$select=id&$expand=owns__saml_account/$count`,
    );
    expect(counted.json()).toEqual({ d: [{ id: ann.userId, owns__saml_account: 1 }] });
    const rows = rowsOf(
      await v7(ben, 'GET', '/saml_account?$select=remote_id,display_name,created_at'),
    );
    expect(rows).toEqual([{ remote_id: null, display_name: null, created_at: null }]);
    const filtered = await v7(ben, 'GET', `/saml_account?$filter=remote_id eq 'ann@acme'`);
    expect(rowsOf(filtered)).toEqual([]);
  });

  it('is written by nobody through /v7, not even its owner', async () => {
    const [own] = rowsOf(await v7(ann, 'GET', '/saml_account?$select=id'));
    const attempts = [
      await v7(ann, 'POST', '/saml_account', {
        belongs_to__user: ann.userId,
        was_generated_by__identity_provider: providerId,
        remote_id: 'another',
      }),
      await v7(cat, 'POST', '/saml_account', {
        belongs_to__user: cat.userId,
        was_generated_by__identity_provider: providerId,
        remote_id: 'cat@acme',
      }),
      await v7(ann, 'PATCH', `/saml_account(${String(own?.id)})`, { remote_id: 'changed' }),
      await v7(ann, 'DELETE', `/saml_account(${String(own?.id)})`),
      await v7(ben, 'DELETE', `/saml_account(${String(own?.id)})`),
    ];
    // Refused permissions are 401 (wire contract); a PATCH of read-only fields is bad input first.
    expect(attempts.map((attempt) => attempt.statusCode)).toEqual([401, 401, 400, 401, 401]);
    const { rows } = await db.query('SELECT "belongs_to__user", "remote_id" FROM "saml_account"');
    expect(rows).toEqual([{ belongs_to__user: ann.userId, remote_id: 'ann@acme' }]);
  });

  it('goes with its user', async () => {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "saml_account" ("belongs_to__user", "was_generated_by__identity_provider",
                                   "remote_id")
       VALUES ($1, $2, 'cat@acme') RETURNING "id"`,
      [cat.userId, providerId],
    );
    expect(rows).toHaveLength(1);
    await db.query('DELETE FROM "user" WHERE "id" = $1', [cat.userId]);
    const left = await db.query('SELECT 1 FROM "saml_account" WHERE "remote_id" = $1', [
      'cat@acme',
    ]);
    expect(left.rows).toEqual([]);
  });
});
