import type { Application } from './application.js';
import type { DateTime, OptionalToOne, ToOne } from './field-types.js';
import type { Organization } from './organization.js';
import type { UserApplicationMembership } from './application-membership.js';
import type { OrganizationMembership } from './organization-membership.js';
import type { TeamMembership } from './team.js';

// v7 saml_account: a sign-in through an identity provider (fellow members see that one exists;
// its remote id and name are null on their reads). Created by SAML sign-in, never through /v7.
export type SamlAccount = {
  id: number;
  belongs_to__user: ToOne<User>;
  was_generated_by__identity_provider: ToOne<{ id: number }>;
  // Not v7: when the account was linked; null on fellow members' reads.
  created_at: DateTime | null;
  remote_id: string | null;
  display_name: string | null;
};

// v7 recovery_two_factor: one of the owner's two-factor recovery codes (never the code itself).
export type RecoveryTwoFactor = {
  id: number;
  used_timestamp: DateTime | null;
  belongs_to__user: ToOne<User>;
};

// v7 social_service_account: a GitHub or Google account the owner signs in with. Created by the
// social sign-in flow (the server's /auth/{provider} routes), never through /v7; the owner may
// delete it (unlink) unless it is the account's last way in. Its remote id is never served.
export type SocialServiceAccount = {
  id: number;
  belongs_to__user: ToOne<User>;
  provider: string;
  display_name: string | null;
};

// v7 user: the public face of an account (e-mail and profile fields are not v7 fields). Fellow
// members read `id` and `username` only; the other fields are null on their rows.
export type User = {
  id: number;
  created_at: DateTime | null;
  actor: OptionalToOne<{ id: number }>;
  username: string;
  has_legacy_link_to__organization: OptionalToOne<Organization>;
  // Written true to ask for a new verification mail.
  has_been_sent_verification_email: boolean | null;
  // Not v7: the owner's new address while it waits for its verification link.
  pending_email: string | null;
  // Reverse navigations, present only when expanded.
  organization_membership?: OrganizationMembership[];
  has_direct_access_to__application?: Application[];
  owns__saml_account?: SamlAccount[];
  owns__social_service_account?: SocialServiceAccount[];
  owns__recovery_two_factor?: RecoveryTwoFactor[];
  team_membership?: TeamMembership[];
  user_application_membership?: UserApplicationMembership[];
};
