import type { Application } from './application.js';
import type { DateTime, OptionalToOne, ToOne } from './field-types.js';
import type { Organization } from './organization.js';
import type { OrganizationMembership } from './organization-membership.js';

// v7 user: the public face of an account (e-mail and profile fields are not v7 fields).
export type User = {
  id: number;
  created_at: DateTime;
  actor: ToOne<{ id: number }>;
  username: string;
  has_legacy_link_to__organization: OptionalToOne<Organization>;
  // Reverse navigations, present only when expanded.
  organization_membership?: OrganizationMembership[];
  has_direct_access_to__application?: Application[];
};
