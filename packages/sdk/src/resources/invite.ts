import type { Application } from './application.js';
import type { ApplicationMembershipRole } from './application-membership.js';
import type { OptionalToOne, ToOne } from './field-types.js';
import type { Organization } from './organization.js';
import type { OrganizationMembershipRole } from './organization-membership.js';
import type { User } from './user.js';

// v7 invitee: who an invitation is for. `email` holds what the inviter typed: an e-mail, or the
// username of an account.
export type Invitee = {
  id: number;
  email: string;
};

// v7 invitee__is_invited_to__organization (organization_invite).
export type OrganizationInvite = {
  id: number;
  invitee: ToOne<Invitee>;
  is_invited_to__organization: ToOne<Organization>;
  organization_membership_role: ToOne<OrganizationMembershipRole>;
  message: string | null;
  is_created_by__user: OptionalToOne<User>;
};

// The server resolves `invitee` (an e-mail or a username) to the invitee row.
export type OrganizationInviteWrite = {
  invitee: string;
  is_invited_to__organization: number;
  organization_membership_role: number;
  message: string | null;
};

// v7 invitee__is_invited_to__application (application_invite).
export type ApplicationInvite = {
  id: number;
  invitee: ToOne<Invitee>;
  is_invited_to__application: ToOne<Application>;
  application_membership_role: ToOne<ApplicationMembershipRole>;
  message: string | null;
  is_created_by__user: OptionalToOne<User>;
};

export type ApplicationInviteWrite = {
  invitee: string;
  is_invited_to__application: number;
  application_membership_role: number;
  message: string | null;
};
