import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Database } from '../../infra/db/database.js';
import { registerODataRoutes } from '../../infra/odata/register-odata-routes.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { registerAuth } from '../auth/register-auth.js';

// The account page reads the username and the account's creation date from user_profile.
let db: Database;
let app: FastifyInstance;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await createTestApp(createTestContext(db), registerAuth, registerODataRoutes);
});

afterAll(async () => {
  await app.close();
  await db.close();
});

const createAccount = async (username: string, createdAt: string): Promise<number> => {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "user" ("username", "email", "password_hash", "created_at")
     VALUES ($1, $2, $3, $4) RETURNING "id"`,
    [username, `${username}@example.com`, await hashTestPassword('the-password'), createdAt],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('no user');
  return id;
};

describe('GET /v7/user_profile', () => {
  it('serves the username and created_at of the signed-in user only', async () => {
    const id = await createAccount('profile_owner', '2025-03-04T05:06:07.000Z');
    await createAccount('someone_else', '2024-01-01T00:00:00.000Z');
    const login = await app.inject({
      method: 'POST',
      url: '/login_',
      payload: { username: 'profile_owner', password: 'the-password' },
    });
    expect(login.statusCode, login.body).toBe(200);
    const response = await app.inject({
      url: '/v7/user_profile?$select=id,username,created_at',
      headers: { authorization: `Bearer ${login.body}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      d: [{ id, username: 'profile_owner', created_at: '2025-03-04T05:06:07.000Z' }],
    });
  });

  it('refuses writes to them', async () => {
    const { rows: owners } = await db.query<{ id: number }>(
      'SELECT "id" FROM "user" WHERE "username" = $1',
      ['profile_owner'],
    );
    const login = await app.inject({
      method: 'POST',
      url: '/login_',
      payload: { username: 'profile_owner', password: 'the-password' },
    });
    const response = await app.inject({
      method: 'PATCH',
      url: `/v7/user_profile(${owners[0]?.id})`,
      headers: { authorization: `Bearer ${login.body}` },
      payload: { username: 'renamed' },
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    const { rows } = await db.query('SELECT 1 FROM "user" WHERE "username" = $1', ['renamed']);
    expect(rows).toEqual([]);
  });
});
