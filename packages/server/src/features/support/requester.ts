import type { Queryable } from '../../infra/db/database.js';
import type { Requester } from './support-desk.js';

export const requesterOf = async (db: Queryable, userId: number): Promise<Requester> => {
  const { rows } = await db.query<{ username: string; email: string | null }>(
    'SELECT "username", "email" FROM "user" WHERE "id" = $1',
    [userId],
  );
  const row = rows[0];
  if (!row) throw new Error(`user ${userId} vanished`);
  return { userId, username: row.username, email: row.email };
};
