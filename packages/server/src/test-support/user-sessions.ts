import type { FastifyInstance } from 'fastify';
import { hashTestPassword } from './test-passwords.js';
import type { Queryable } from '../infra/db/database.js';

// A user with a password (and optionally a platform role) signed in through POST /login_: their
// id and session token, for tests that call routes as that user.
export const signedInUser = async (
  db: Queryable,
  app: FastifyInstance,
  username: string,
  role?: 'balena_admin' | 'support_agent',
): Promise<{ id: number; token: string }> => {
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
  if (login.statusCode !== 200) throw new Error(`login of ${username}: ${login.statusCode}`);
  return { id, token: login.body };
};

export const bearer = (token: string): { authorization: string } => ({
  authorization: `Bearer ${token}`,
});
