import type { DateTime, ToOne } from './field-types.js';
import type { User } from './user.js';

// v7 oauth_application: an application platform administrators registered;
// any signed-in user reads these public fields. `created_at` is Flotilla's.
export type OAuthApplication = {
  id: number;
  created_at: DateTime;
  client_id: string;
  name: string;
  description: string | null;
  redirect_uri: string;
  // Reverse navigation, present only when expanded: the caller's own authorization, if any.
  oauth_application_authorization?: OAuthApplicationAuthorization[];
};

// v7 oauth_application_authorization: a user allowed the application (POST /oauth/authorize);
// only its owner reads it and revokes it (DELETE). `created_at` is Flotilla's: the first allow.
export type OAuthApplicationAuthorization = {
  id: number;
  created_at: DateTime;
  belongs_to__user: ToOne<User>;
  is_for__oauth_application: ToOne<OAuthApplication>;
};
