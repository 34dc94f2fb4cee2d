import type { ToOne } from './field-types.js';
import type { User } from './user.js';

// v7 user_profile: the signed-in user's own account details (read-only).
export type UserProfile = {
  id: number;
  is_of__user: ToOne<User>;
  email: string | null;
  has_disabled_newsletter: boolean;
  is_verified: boolean;
  must_be_verified: boolean;
  first_name: string | null;
  last_name: string | null;
  account_type: string | null;
  has_password_set: boolean;
  company: string | null;
  created_at: string;
  username: string;
};
