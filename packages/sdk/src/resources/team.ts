import type { Application } from './application.js';
import type { ApplicationMembershipRole } from './application-membership.js';
import type { DateTime, ToOne } from './field-types.js';
import type { Organization } from './organization.js';
import type { User } from './user.js';

// v7 team: users of an organization that share fleet accesses.
export type Team = {
  id: number;
  created_at: DateTime;
  belongs_to__organization: ToOne<Organization>;
  name: string;
  description: string | null;
  // Reverse navigations, present only when expanded.
  team_membership?: TeamMembership[];
  team_application_access?: TeamApplicationAccess[];
};

// v7 team_membership (user__is_member_of__team).
export type TeamMembership = {
  id: number;
  created_at: DateTime;
  user: ToOne<User>;
  is_member_of__team: ToOne<Team>;
};

// v7 team_application_access: the role a team holds on a fleet.
export type TeamApplicationAccess = {
  id: number;
  created_at: DateTime;
  team: ToOne<Team>;
  grants_access_to__application: ToOne<Application>;
  application_membership_role: ToOne<ApplicationMembershipRole>;
};

export type TeamWrite = {
  name: string;
  belongs_to__organization: number;
};

export type TeamMembershipWrite = {
  // Instead of `user`: the server resolves the username.
  username: string;
  user: number;
  is_member_of__team: number;
};

export type TeamApplicationAccessWrite = {
  team: number;
  grants_access_to__application: number;
  application_membership_role: number;
};
