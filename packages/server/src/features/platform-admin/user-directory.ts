import type { AdminUserPage } from '@flotilla/shared/users/admin-users';
import type { Queryable } from '../../infra/db/database.js';
import { platformRolesSql } from '../../infra/auth/resolve-actor.js';

type UserRow = {
  id: number;
  username: string;
  email: string | null;
  created_at: string;
  platform_roles: string[];
  total: number;
};

// LIKE treats % and _ as wildcards and \ as the escape: a search for "a_b" means those letters.
const likePattern = (search: string): string => `%${search.replace(/[\\%_]/g, '\\$&')}%`;

// One page of users, oldest first, whose username or e-mail contains `search` (ignoring case),
// with the number of matches.
export const searchUsers = async (
  db: Queryable,
  query: { search: string; limit: number; offset: number },
): Promise<AdminUserPage> => {
  const pattern = query.search === '' ? null : likePattern(query.search);
  const { rows } = await db.query<UserRow>(
    `SELECT u."id", u."username", u."email",
            to_char(u."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "created_at",
            ${platformRolesSql('u')} AS "platform_roles",
            count(*) OVER ()::integer AS "total"
       FROM "user" u
      WHERE $1::text IS NULL OR u."username" ILIKE $1 OR u."email" ILIKE $1
      ORDER BY u."id"
      LIMIT $2 OFFSET $3`,
    [pattern, query.limit, query.offset],
  );
  // Past the last page the window count is gone with the rows: count on its own.
  const total =
    rows[0]?.total ??
    (
      await db.query<{ n: number }>(
        `SELECT count(*)::integer AS "n" FROM "user" u
          WHERE $1::text IS NULL OR u."username" ILIKE $1 OR u."email" ILIKE $1`,
        [pattern],
      )
    ).rows[0]?.n ??
    0;
  return {
    total,
    users: rows.map((row) => ({
      id: row.id,
      username: row.username,
      email: row.email,
      createdAt: row.created_at,
      platformRoles: row.platform_roles,
    })),
  };
};
