import { apiKeyPrefix, generateApiKey, hashApiKey } from '../../infra/auth/api-key-tokens.js';
import type { Queryable } from '../../infra/db/database.js';
import { conflict } from '../../infra/errors/api-error.js';

export type ApiKeyDetails = {
  name?: string | null;
  description?: string | null;
  expiryDate?: Date | null;
};

// Mints a key for an actor and stores only its hash. The key itself is shown once, to the caller.
export const createApiKey = async (
  db: Queryable,
  actorId: number,
  details: ApiKeyDetails,
): Promise<string> => {
  const key = generateApiKey();
  await insertKey(db, actorId, key, details);
  return key;
};

const insertKey = async (
  db: Queryable,
  actorId: number,
  key: string,
  details: ApiKeyDetails,
): Promise<boolean> => {
  const { rowCount } = await db.query(
    `INSERT INTO "api_key" ("is_of__actor", "key_hash", "key_prefix", "name", "description", "expiry_date")
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT ("key_hash") DO NOTHING`,
    [
      actorId,
      hashApiKey(key),
      apiKeyPrefix(key),
      details.name ?? null,
      details.description ?? null,
      details.expiryDate ?? null,
    ],
  );
  return rowCount > 0;
};

// Registers a key chosen by the client (a device agent's key exchange). Registering the same key
// again for the same actor is a no-op, so a retried exchange succeeds.
export const registerGivenApiKey = async (
  db: Queryable,
  actorId: number,
  key: string,
  details: ApiKeyDetails,
): Promise<void> => {
  if (await insertKey(db, actorId, key, details)) return;
  const { rows } = await db.query<{ is_of__actor: number }>(
    'SELECT "is_of__actor" FROM "api_key" WHERE "key_hash" = $1',
    [hashApiKey(key)],
  );
  if (rows[0]?.is_of__actor !== actorId) throw conflict('"api_key" must be unique.');
};
