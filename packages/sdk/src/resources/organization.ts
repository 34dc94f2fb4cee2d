import type { Application } from './application.js';
import type { DateTime, JsonObject } from './field-types.js';
import type { OrganizationMembership } from './organization-membership.js';

// v7 organization.
export type Organization = {
  id: number;
  created_at: DateTime;
  name: string;
  handle: string;
  company_name: string | null;
  billing_account_code: string | null;
  has_past_due_invoice_since__date: DateTime | null;
  is_frozen: boolean;
  industry: string | null;
  website: string | null;
  logo_image: JsonObject | null;
  is_using__billing_version: string | null;
  is_enforcing_saml_login: boolean;
  // Reverse navigations, present only when expanded.
  application?: Application[];
  organization_membership?: OrganizationMembership[];
};

export type OrganizationWrite = {
  name: string;
  handle: string;
  company_name: string | null;
  industry: string | null;
  website: string | null;
  is_enforcing_saml_login: boolean;
};
