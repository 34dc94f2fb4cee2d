import { usernameProblem } from '@flotilla/shared/users/username';
import type { Queryable, SqlValue } from '../../infra/db/database.js';
import { badRequest, conflict } from '../../infra/errors/api-error.js';
import type { HookRegistry } from '../../infra/odata/hooks.js';

const usernameTaken = () => conflict('"username" must be unique.');

// The same rule as sign-up (shared/users/username.ts), and unique ignoring case among the other
// users. The unique index on lower(username) settles races; this check gives the clear answer.
const assertUsernameWritable = async (
  tx: Queryable,
  username: SqlValue | undefined,
  ownIds: readonly number[],
): Promise<void> => {
  if (typeof username !== 'string') throw badRequest("'username' of 'user' must be a string");
  const problem = usernameProblem(username);
  if (problem !== undefined) throw badRequest(problem);
  // One name on several rows can never be unique.
  if (ownIds.length > 1) throw usernameTaken();
  const { rows } = await tx.query(
    'SELECT 1 FROM "user" WHERE lower("username") = lower($1) AND NOT ("id" = ANY($2::integer[]))',
    [username, [...ownIds]],
  );
  if (rows.length > 0) throw usernameTaken();
};

// /v7 writes of `user` rows (a user renaming themselves with PATCH /v7/user(id)).
export const registerUserHooks = (hooks: HookRegistry): void => {
  hooks.add('user', {
    async beforeCreate(ctx, values) {
      await assertUsernameWritable(ctx.tx, values.username, []);
    },
    async beforeUpdate(ctx, ids, values) {
      if (!('username' in values)) return;
      await assertUsernameWritable(ctx.tx, values.username, ids);
    },
  });
};
