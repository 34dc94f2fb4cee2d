import type { DateTime, ToOne } from './field-types.js';

// v7 api_key: listed, renamed and revoked through /v7; minted by the /api-key/* routes. The
// secret itself is never readable.
export type ApiKey = {
  id: number;
  created_at: DateTime;
  expiry_date: DateTime | null;
  is_of__actor: ToOne<{ id: number }>;
  name: string | null;
  description: string | null;
};

export type ApiKeyWrite = { name: string | null; description: string | null };
