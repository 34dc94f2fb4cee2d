import { samlApiKeyRefusal } from '@flotilla/shared/auth/saml-accounts';
import type { Queryable } from '../../infra/db/database.js';
import { forbidden } from '../../infra/errors/api-error.js';

// Refuses a user API key to a user who signs in through SAML (shared/auth/saml-accounts.ts).
// Only user keys: provisioning and device keys act as a fleet or a device, not as the user, so
// a SAML user with the fleet role for it still mints them (the rule is about the "API keys" of
// the access-tokens screen). A forbidden action answers 401, as every refusal (wire contract).
export const refuseUserKeyForSamlAccount = async (db: Queryable, userId: number): Promise<void> => {
  const { rows } = await db.query(
    'SELECT 1 FROM "saml_account" WHERE "belongs_to__user" = $1 LIMIT 1',
    [userId],
  );
  if (rows.length > 0) throw forbidden(samlApiKeyRefusal);
};
