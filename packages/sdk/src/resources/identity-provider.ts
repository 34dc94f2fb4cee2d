import type { ToOne } from './field-types.js';
import type { Organization } from './organization.js';
import type { Team } from './team.js';

// v7 identity_provider: a SAML identity provider serving one or more organizations.
export type IdentityProvider = {
  id: number;
  sso_identifier: string;
  entry_point: string;
  issuer: string;
  certificate: string;
  requires_signed_authn_response: boolean;
  // Reverse navigation, present only when expanded.
  identity_provider_membership?: IdentityProviderMembership[];
};

// v7 identity_provider_membership: an organization a provider serves, and the team its users join.
export type IdentityProviderMembership = {
  id: number;
  organization: ToOne<Organization>;
  is_authorized_by__identity_provider: ToOne<IdentityProvider>;
  grants_access_to__team: ToOne<Team> | null;
};

export type IdentityProviderWrite = {
  sso_identifier: string;
  entry_point: string;
  issuer: string;
  certificate: string;
  // Create only, not a column: the organization the new provider serves first.
  organization_id: number;
};

export type IdentityProviderMembershipWrite = {
  organization: number;
  is_authorized_by__identity_provider: number;
  grants_access_to__team: number | null;
};
