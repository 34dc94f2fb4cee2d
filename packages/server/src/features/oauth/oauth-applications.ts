import { randomBytes } from 'node:crypto';
import type { OAuthApplication } from '@flotilla/shared/auth/oauth';
import type { Queryable } from '../../infra/db/database.js';

type ApplicationRow = {
  id: number;
  client_id: string;
  name: string;
  description: string | null;
  redirect_uri: string;
  created_at: string;
};

const columns = `"id", "client_id", "name", "description", "redirect_uri",
  to_char("created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "created_at"`;

const toApplication = (row: ApplicationRow): OAuthApplication => ({
  id: row.id,
  clientId: row.client_id,
  name: row.name,
  description: row.description,
  redirectUri: row.redirect_uri,
  createdAt: row.created_at,
});

export const listApplications = async (db: Queryable): Promise<OAuthApplication[]> => {
  const { rows } = await db.query<ApplicationRow>(
    `SELECT ${columns} FROM "oauth_application" ORDER BY "id"`,
  );
  return rows.map(toApplication);
};

export const findApplication = async (
  db: Queryable,
  clientId: string,
): Promise<OAuthApplication | undefined> => {
  const { rows } = await db.query<ApplicationRow>(
    `SELECT ${columns} FROM "oauth_application" WHERE "client_id" = $1`,
    [clientId],
  );
  const row = rows[0];
  return row ? toApplication(row) : undefined;
};

// The client id is generated: public, but unguessable enough that ids are not enumerable.
export const createApplication = async (
  db: Queryable,
  input: { name: string; description: string | null; redirectUri: string; createdBy: number },
): Promise<OAuthApplication> => {
  const { rows } = await db.query<ApplicationRow>(
    `INSERT INTO "oauth_application" ("client_id", "name", "description", "redirect_uri", "is_created_by__user")
     VALUES ($1, $2, $3, $4, $5) RETURNING ${columns}`,
    [
      randomBytes(16).toString('hex'),
      input.name,
      input.description,
      input.redirectUri,
      input.createdBy,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('oauth_application insert returned nothing');
  return toApplication(row);
};

export const deleteApplication = async (db: Queryable, id: number): Promise<boolean> => {
  const { rowCount } = await db.query('DELETE FROM "oauth_application" WHERE "id" = $1', [id]);
  return rowCount > 0;
};
