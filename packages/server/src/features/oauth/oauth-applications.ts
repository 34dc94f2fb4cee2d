import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { OAuthApplication, OAuthApplicationCreated } from '@flotilla/shared/auth/oauth';
import type { Queryable } from '../../infra/db/database.js';

type ApplicationRow = {
  id: number;
  client_id: string;
  name: string;
  description: string | null;
  redirect_uri: string;
  created_at: string;
  confidential: boolean;
};

const columns = `"id", "client_id", "name", "description", "redirect_uri",
  "client_secret_hash" IS NOT NULL AS "confidential",
  to_char("created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "created_at"`;

const toApplication = (row: ApplicationRow): OAuthApplication => ({
  id: row.id,
  clientId: row.client_id,
  name: row.name,
  description: row.description,
  redirectUri: row.redirect_uri,
  createdAt: row.created_at,
  confidential: row.confidential,
});

// Secrets are random, so a plain SHA-256 stores them safely (as API keys and codes).
const secretHashOf = (secret: string): Buffer => createHash('sha256').update(secret).digest();

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

// The client id is generated: public, but unguessable enough that ids are not enumerable. A
// confidential client also gets a secret, returned here only.
export const createApplication = async (
  db: Queryable,
  input: {
    name: string;
    description: string | null;
    redirectUri: string;
    createdBy: number;
    confidential: boolean;
  },
): Promise<OAuthApplicationCreated> => {
  const secret = input.confidential ? randomBytes(32).toString('base64url') : null;
  const { rows } = await db.query<ApplicationRow>(
    `INSERT INTO "oauth_application"
       ("client_id", "name", "description", "redirect_uri", "is_created_by__user", "client_secret_hash")
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${columns}`,
    [
      randomBytes(16).toString('hex'),
      input.name,
      input.description,
      input.redirectUri,
      input.createdBy,
      secret === null ? null : secretHashOf(secret).toString('hex'),
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('oauth_application insert returned nothing');
  return { ...toApplication(row), clientSecret: secret };
};

export const deleteApplication = async (db: Queryable, id: number): Promise<boolean> => {
  const { rowCount } = await db.query('DELETE FROM "oauth_application" WHERE "id" = $1', [id]);
  return rowCount > 0;
};

// Whether the client may exchange codes with what it presented: a public client (no secret
// registered) needs nothing; a confidential one its secret, compared in constant time. Unknown
// clients pass here: the exchange refuses their codes.
export const clientAuthenticated = async (
  db: Queryable,
  clientId: string,
  secret: string | null,
): Promise<boolean> => {
  const { rows } = await db.query<{ client_secret_hash: string | null }>(
    `SELECT "client_secret_hash" FROM "oauth_application" WHERE "client_id" = $1`,
    [clientId],
  );
  const stored = rows[0]?.client_secret_hash ?? null;
  if (stored === null) return true;
  if (secret === null) return false;
  return timingSafeEqual(Buffer.from(stored, 'hex'), secretHashOf(secret));
};
