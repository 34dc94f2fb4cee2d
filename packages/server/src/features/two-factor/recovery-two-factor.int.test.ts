import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Database } from '../../infra/db/database.js';
import { registerODataRoutes } from '../../infra/odata/register-odata-routes.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { registerAuth } from '../auth/register-auth.js';

// v7 recovery_two_factor (balena-sdk's typings: id, used_timestamp, belongs_to__user): each user
// reads their own recovery codes' rows, nobody reads a code or its hash, and nobody writes.
let db: Database;
let app: FastifyInstance;

type Person = { userId: number; token: string };
let ann: Person;
let ben: Person;

const person = async (name: string): Promise<Person> => {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "user" ("username", "email", "password_hash", "is_verified")
     VALUES ($1, $2, $3, true) RETURNING "id"`,
    [name, `${name}@example.com`, await hashTestPassword('the-password')],
  );
  const login = await app.inject({
    method: 'POST',
    url: '/login_',
    payload: { username: `${name}@example.com`, password: 'the-password' },
  });
  return { userId: rows[0]?.id ?? 0, token: login.body };
};

const v7 = (
  who: Person | null,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) =>
  app.inject({
    method,
    url: `/v7${url}`,
    headers: who ? { authorization: `Bearer ${who.token}` } : {},
    ...(payload ? { payload } : {}),
  });

const usedAt = '2026-05-01T10:00:00.000Z';

beforeAll(async () => {
  db = await createTestDatabase();
  app = await createTestApp(createTestContext(db), registerAuth, registerODataRoutes);
  ann = await person('ann');
  ben = await person('ben');
  await db.query(
    `INSERT INTO "user_recovery_code" ("user", "code_hash", "used_at")
     VALUES ($1, 'hash-a1', NULL), ($1, 'hash-a2', $3), ($2, 'hash-b1', NULL)`,
    [ann.userId, ben.userId, usedAt],
  );
  // Fellow members of an organization: they read each other's user rows, not their codes.
  await db.query(
    `WITH o AS (INSERT INTO "organization" ("name", "handle") VALUES ('Both', 'both') RETURNING "id")
     INSERT INTO "organization_membership" ("user", "is_member_of__organization",
                                            "organization_membership_role")
     SELECT u, o."id", (SELECT "id" FROM "organization_membership_role" WHERE "name" = 'member')
       FROM o, unnest(ARRAY[$1::integer, $2::integer]) AS u`,
    [ann.userId, ben.userId],
  );
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('v7 recovery_two_factor', () => {
  it('serves the caller their own codes: id, owner and time of use', async () => {
    const response = await v7(ann, 'GET', '/recovery_two_factor?$orderby=id');
    expect(response.statusCode).toBe(200);
    const rows = response.json<{ d: Record<string, unknown>[] }>().d;
    expect(rows.map(({ id: _id, ...rest }) => rest)).toEqual([
      { belongs_to__user: { __id: ann.userId }, used_timestamp: null },
      { belongs_to__user: { __id: ann.userId }, used_timestamp: usedAt },
    ]);
    const unused = await v7(
      ann,
      'GET',
      '/recovery_two_factor/$count?$filter=used_timestamp eq null',
    );
    expect(unused.json()).toEqual({ d: 1 });
    const expanded = await v7(
      ann,
      'GET',
      `/user(${ann.userId})?$select=id&$expand=owns__recovery_two_factor/$count`,
    );
    expect(expanded.json()).toEqual({ d: [{ id: ann.userId, owns__recovery_two_factor: 2 }] });
  });

  it('shows nobody else’s codes, not even to a fellow member or through an expansion', async () => {
    const theirs = await v7(ben, 'GET', '/recovery_two_factor');
    expect(theirs.json<{ d: unknown[] }>().d).toHaveLength(1);
    const filtered = await v7(
      ben,
      'GET',
      `/recovery_two_factor?$filter=belongs_to__user eq ${ann.userId}`,
    );
    expect(filtered.json()).toEqual({ d: [] });
    const expanded = await v7(
      ben,
      'GET',
      `/user(${ann.userId})?$select=id&$expand=owns__recovery_two_factor($select=id)`,
    );
    expect(expanded.json()).toEqual({ d: [{ id: ann.userId, owns__recovery_two_factor: [] }] });
    const guest = await v7(null, 'GET', '/recovery_two_factor');
    // Forbidden to a guest: 401, as every refused permission on /v7 (wire contract).
    expect(guest.statusCode).toBe(401);
  });

  it('never serves a code or its hash', async () => {
    for (const field of ['code_hash', 'recovery_code', 'user', 'used_at']) {
      const response = await v7(ann, 'GET', `/recovery_two_factor?$select=${field}`);
      expect({ field, status: response.statusCode }).toEqual({ field, status: 400 });
    }
    const filtered = await v7(ann, 'GET', `/recovery_two_factor?$filter=code_hash eq 'hash-a1'`);
    expect(filtered.statusCode).toBe(400);
  });

  it('is written by nobody', async () => {
    const [own] = (await v7(ann, 'GET', '/recovery_two_factor?$orderby=id')).json<{
      d: { id: number }[];
    }>().d;
    const attempts = [
      await v7(ann, 'POST', '/recovery_two_factor', { belongs_to__user: ann.userId }),
      await v7(ann, 'PATCH', `/recovery_two_factor(${own?.id})`, { used_timestamp: null }),
      await v7(ann, 'DELETE', `/recovery_two_factor(${own?.id})`),
    ];
    for (const attempt of attempts) expect(attempt.statusCode).toBeGreaterThanOrEqual(400);
    const { rows } = await db.query('SELECT 1 FROM "user_recovery_code"');
    expect(rows).toHaveLength(3);
  });
});
