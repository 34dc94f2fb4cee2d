import type { Application } from './application.js';
import type { CreditBundle, OrganizationCreditNotification } from './credit.js';
import type { DateTime } from './field-types.js';
import type { OrganizationInvite } from './invite.js';
import type { OrganizationMembership } from './organization-membership.js';
import type { Team } from './team.js';

// An organization's logo as the server describes it (PUT /org/v1/organization/:id/logo).
export type WebResource = {
  filename: string;
  href: string;
  content_type: string;
  size: number;
};

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
  logo_image: WebResource | null;
  is_using__billing_version: string | null;
  is_enforcing_saml_login: boolean;
  // Reverse navigations, present only when expanded.
  application?: Application[];
  organization_membership?: OrganizationMembership[];
  owns__team?: Team[];
  organization_invite?: OrganizationInvite[];
  owns__credit_bundle?: CreditBundle[];
  organization_credit_notification?: OrganizationCreditNotification[];
};

export type OrganizationWrite = {
  name: string;
  handle: string;
  company_name: string | null;
  industry: string | null;
  website: string | null;
  is_enforcing_saml_login: boolean;
};
