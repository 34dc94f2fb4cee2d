import { usernameProblem } from '@flotilla/shared/users/username';
import { z } from 'zod';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest } from '../../infra/errors/api-error.js';

const email = z.string().max(254).email();

// Who an invitation is for: what the inviter typed (an e-mail, or the username of an account),
// and where its mail goes. An invitation by username never shows the inviter that account's
// e-mail: the invitee row holds the username.
export type Invitee = { identifier: string; recipient: string };

export const resolveInvitee = async (tx: Queryable, given: unknown): Promise<Invitee> => {
  if (typeof given !== 'string' || given.trim() === '') {
    throw badRequest("'invitee' must be an e-mail address or a username");
  }
  const identifier = given.trim();
  if (identifier.includes('@')) {
    if (!email.safeParse(identifier).success) throw badRequest('Invalid e-mail address');
    return { identifier, recipient: identifier };
  }
  if (usernameProblem(identifier) !== undefined) {
    throw badRequest("'invitee' must be an e-mail address or a username");
  }
  const { rows } = await tx.query<{ username: string; email: string | null }>(
    'SELECT "username", "email" FROM "user" WHERE lower("username") = lower($1)',
    [identifier],
  );
  const user = rows[0];
  if (!user) throw badRequest(`User not found: ${identifier}`);
  if (!user.email) throw badRequest(`${user.username} has no e-mail address to invite`);
  return { identifier: user.username, recipient: user.email };
};

// The invitee row naming `identifier` (rows are unique ignoring case), created when missing.
export const inviteeRowId = async (tx: Queryable, identifier: string): Promise<number> => {
  const { rows } = await tx.query<{ id: number }>(
    `WITH inserted AS (
       INSERT INTO "invitee" ("email") VALUES ($1) ON CONFLICT ((lower("email"))) DO NOTHING RETURNING "id"
     )
     SELECT "id" FROM inserted UNION ALL SELECT "id" FROM "invitee" WHERE lower("email") = lower($1)
     LIMIT 1`,
    [identifier],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('invitee upsert returned no id');
  return id;
};

// The SQL condition "user row `u` is the invitee `identifierSql` names".
export const userIsInvitee = (u: string, identifierSql: string): string =>
  `(lower(${u}."email") = lower(${identifierSql}) OR lower(${u}."username") = lower(${identifierSql}))`;
