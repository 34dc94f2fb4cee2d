import type { Application } from './application.js';
import type { DateTime, ToOne } from './field-types.js';
import type { User } from './user.js';

// v7 application_membership_role: the roles a fleet membership or team access can carry.
export type ApplicationMembershipRole = {
  id: number;
  created_at: DateTime;
  modified_at: DateTime;
  name: string;
  description: string | null;
};

// v7 user_application_membership (user__is_member_of__application): a user's direct role on a
// fleet.
export type UserApplicationMembership = {
  id: number;
  user: ToOne<User>;
  is_member_of__application: ToOne<Application>;
  application_membership_role: ToOne<ApplicationMembershipRole>;
};

export type UserApplicationMembershipWrite = {
  user: number;
  // Instead of `user`: the server resolves the username.
  username: string;
  is_member_of__application: number;
  application_membership_role: number;
};
