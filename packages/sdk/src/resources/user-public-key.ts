import type { DateTime, ToOne } from './field-types.js';
import type { User } from './user.js';

// v7 user__has__public_key: the user's SSH public keys. `fingerprint` (md5, "aa:bb:...") is
// Flotilla's, derived by the server when the key is stored; null for keys stored before that.
export type UserPublicKey = {
  id: number;
  created_at: DateTime;
  user: ToOne<User>;
  public_key: string;
  title: string;
  fingerprint: string | null;
};

export type UserPublicKeyWrite = { user: number; public_key: string; title: string };
