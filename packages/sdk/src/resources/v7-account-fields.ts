import type { V7FieldTable } from './field-kind.js';

// The fields of the account side of /v7: users, organizations, teams, memberships, invitations,
// identity providers, keys and credits; part of v7Fields (v7-fields.ts).
type AccountResource =
  | 'api_key'
  | 'credit_bundle'
  | 'feature'
  | 'identity_provider'
  | 'identity_provider_membership'
  | 'invitee'
  | 'invitee__is_invited_to__application'
  | 'invitee__is_invited_to__organization'
  | 'oauth_application'
  | 'oauth_application_authorization'
  | 'organization'
  | 'organization_credit_notification'
  | 'organization_membership'
  | 'organization_membership_role'
  | 'organization_membership_tag'
  | 'recovery_two_factor'
  | 'saml_account'
  | 'social_service_account'
  | 'team'
  | 'team_application_access'
  | 'team_membership'
  | 'user'
  | 'user__has__public_key'
  | 'user_profile';

export const accountFields = {
  api_key: {
    id: 'number',
    created_at: 'date',
    expiry_date: 'date | null',
    is_of__actor: 'to-one actor',
    name: 'string | null',
    description: 'string | null',
  },
  credit_bundle: {
    id: 'number',
    created_at: 'date',
    modified_at: 'date',
    payment_status: 'string',
    is_created_by__user: 'to-one user | null',
    is_for__feature: 'to-one feature',
    belongs_to__organization: 'to-one organization',
    unit_cost: 'number',
    original_quantity: 'number',
    available_balance: 'number',
    total_cost: 'number',
    total_balance: 'number',
    expires_on__date: 'date',
    is_associated_with__invoice_id: 'string | null',
    error_message: 'string | null',
  },
  feature: {
    id: 'number',
    title: 'string',
    slug: 'string',
    billing_code: 'string',
  },
  organization_credit_notification: {
    id: 'number',
    created_at: 'date',
    organization: 'to-one organization',
    owns_credit_notification_for__feature: 'to-one feature',
    is_sent_when_below__threshold: 'number',
  },
  identity_provider: {
    id: 'number',
    sso_identifier: 'string',
    entry_point: 'string',
    issuer: 'string',
    certificate: 'string',
    requires_signed_authn_response: 'boolean',
    identity_provider_membership: 'to-many identity_provider_membership',
  },
  identity_provider_membership: {
    id: 'number',
    organization: 'to-one organization',
    is_authorized_by__identity_provider: 'to-one identity_provider',
    grants_access_to__team: 'to-one team | null',
  },
  invitee: {
    id: 'number',
    email: 'string',
  },
  invitee__is_invited_to__application: {
    id: 'number',
    invitee: 'to-one invitee',
    is_invited_to__application: 'to-one application',
    application_membership_role: 'to-one application_membership_role',
    message: 'string | null',
    is_created_by__user: 'to-one user | null',
  },
  invitee__is_invited_to__organization: {
    id: 'number',
    invitee: 'to-one invitee',
    is_invited_to__organization: 'to-one organization',
    organization_membership_role: 'to-one organization_membership_role',
    message: 'string | null',
    is_created_by__user: 'to-one user | null',
  },
  oauth_application: {
    id: 'number',
    created_at: 'date',
    client_id: 'string',
    name: 'string',
    description: 'string | null',
    redirect_uri: 'string',
    oauth_application_authorization: 'to-many oauth_application_authorization',
  },
  oauth_application_authorization: {
    id: 'number',
    created_at: 'date',
    belongs_to__user: 'to-one user',
    is_for__oauth_application: 'to-one oauth_application',
  },
  organization: {
    id: 'number',
    created_at: 'date',
    name: 'string',
    handle: 'string',
    company_name: 'string | null',
    billing_account_code: 'string | null',
    has_past_due_invoice_since__date: 'date | null',
    is_frozen: 'boolean',
    industry: 'string | null',
    website: 'string | null',
    logo_image: 'json | null',
    is_using__billing_version: 'string | null',
    is_enforcing_saml_login: 'boolean',
    application: 'to-many application',
    organization_membership: 'to-many organization_membership',
    owns__team: 'to-many team',
    organization_invite: 'to-many invitee__is_invited_to__organization',
    owns__credit_bundle: 'to-many credit_bundle',
    organization_credit_notification: 'to-many organization_credit_notification',
  },
  organization_membership: {
    id: 'number',
    created_at: 'date',
    user: 'to-one user',
    is_member_of__organization: 'to-one organization',
    organization_membership_role: 'to-one organization_membership_role',
    effective_seat_role: 'string',
    organization_membership_tag: 'to-many organization_membership_tag',
  },
  organization_membership_role: {
    id: 'number',
    name: 'string',
  },
  recovery_two_factor: {
    id: 'number',
    used_timestamp: 'date | null',
    belongs_to__user: 'to-one user',
  },
  saml_account: {
    id: 'number',
    belongs_to__user: 'to-one user',
    was_generated_by__identity_provider: 'to-one identity_provider',
    created_at: 'date | null',
    remote_id: 'string | null',
    display_name: 'string | null',
  },
  social_service_account: {
    id: 'number',
    belongs_to__user: 'to-one user',
    provider: 'string',
    display_name: 'string | null',
  },
  team: {
    id: 'number',
    created_at: 'date',
    belongs_to__organization: 'to-one organization',
    name: 'string',
    description: 'string | null',
    team_membership: 'to-many team_membership',
    team_application_access: 'to-many team_application_access',
  },
  team_application_access: {
    id: 'number',
    created_at: 'date',
    team: 'to-one team',
    grants_access_to__application: 'to-one application',
    application_membership_role: 'to-one application_membership_role',
  },
  team_membership: {
    id: 'number',
    created_at: 'date',
    user: 'to-one user',
    is_member_of__team: 'to-one team',
  },
  user: {
    id: 'number',
    created_at: 'date | null',
    actor: 'to-one actor | null',
    username: 'string',
    has_legacy_link_to__organization: 'to-one organization | null',
    has_been_sent_verification_email: 'boolean | null',
    pending_email: 'string | null',
    organization_membership: 'to-many organization_membership',
    has_direct_access_to__application: 'to-many application',
    owns__saml_account: 'to-many saml_account',
    owns__social_service_account: 'to-many social_service_account',
    owns__recovery_two_factor: 'to-many recovery_two_factor',
    team_membership: 'to-many team_membership',
    user_application_membership: 'to-many user_application_membership',
  },
  user_profile: {
    id: 'number',
    is_of__user: 'to-one user',
    email: 'string | null',
    has_disabled_newsletter: 'boolean',
    is_verified: 'boolean',
    must_be_verified: 'boolean',
    first_name: 'string | null',
    last_name: 'string | null',
    account_type: 'string | null',
    has_password_set: 'boolean',
    company: 'string | null',
    created_at: 'date',
    username: 'string',
  },
  user__has__public_key: {
    id: 'number',
    created_at: 'date',
    user: 'to-one user',
    public_key: 'string',
    title: 'string',
    fingerprint: 'string | null',
  },
  organization_membership_tag: {
    id: 'number',
    organization_membership: 'to-one organization_membership',
    tag_key: 'string',
    value: 'string',
  },
} as const satisfies Pick<V7FieldTable, AccountResource>;
