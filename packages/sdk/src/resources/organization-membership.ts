import type { DateTime, ToOne } from './field-types.js';
import type { Organization } from './organization.js';
import type { User } from './user.js';

// v7 organization_membership_role: administrator or member.
export type OrganizationMembershipRole = {
  id: number;
  name: string;
};

// v7 organization_membership (user__is_member_of__organization).
export type OrganizationMembership = {
  id: number;
  created_at: DateTime;
  user: ToOne<User>;
  is_member_of__organization: ToOne<Organization>;
  organization_membership_role: ToOne<OrganizationMembershipRole>;
  // Billing seat: "administrator", the highest fleet role held, or "member".
  effective_seat_role: string;
  organization_membership_tag?: OrganizationMembershipTag[];
};

// v7 organization_membership_tag.
export type OrganizationMembershipTag = {
  id: number;
  organization_membership: ToOne<OrganizationMembership>;
  tag_key: string;
  value: string;
};

export type OrganizationMembershipWrite = {
  user: number;
  // Instead of `user`: the server resolves the username.
  username: string;
  is_member_of__organization: number;
  organization_membership_role: number;
};
