import type { ResourceDefinition } from '../model-types.js';
import { bool, createdAt, id, ref, shortText, text } from './field-kinds.js';

// SAML single sign-on: identity providers, the organizations they authorize, and the accounts
// they create.
export const identityProviderResources: Record<string, ResourceDefinition> = {
  // A provider may serve several organizations: an administrator of any of them manages it.
  identity_provider: {
    fields: {
      id,
      sso_identifier: shortText({ required: true }),
      entry_point: text({ required: true }),
      issuer: text({ required: true }),
      certificate: text({ required: true }),
      requires_signed_authn_response: bool(),
    },
    alternateKeys: [['sso_identifier']],
    scope: {
      organizations: (row) =>
        `(SELECT ipm."organization" FROM "identity_provider_membership" ipm WHERE ipm."is_authorized_by__identity_provider" = ${row}."id")`,
    },
  },
  identity_provider_membership: {
    alternateKeys: [['organization', 'is_authorized_by__identity_provider']],
    fields: {
      id,
      organization: ref(
        'organization',
        [
          'organization__is_authorized_by__identity_provider',
          'identity_provider_membership',
          'includes__organization__is_authorized_by__identity_provider',
          'includes__identity_provider_membership',
          'is_of__organization__is_authorized_by__identity_provider',
          'is_of__identity_provider_membership',
          'is_authorized_by__identity_provider',
        ],
        { required: true, createOnly: true },
      ),
      is_authorized_by__identity_provider: ref(
        'identity_provider',
        [
          'organization__is_authorized_by__identity_provider',
          'identity_provider_membership',
          'authorizes__organization',
          'authorizes__organization__is_authorized_by__identity_provider',
          'authorizes__identity_provider_membership',
        ],
        { required: true, createOnly: true },
      ),
      // Team that users signing in through this provider join.
      grants_access_to__team: ref('team'),
    },
    synonyms: {
      identity_provider: 'is_authorized_by__identity_provider',
      authorizes__organization: 'organization',
    },
    scope: { organization: (row) => `${row}."organization"` },
  },
  saml_account: {
    alternateKeys: [['was_generated_by__identity_provider', 'remote_id']],
    fields: {
      id,
      // Not in v7: when the account was linked (migration 0027).
      created_at: { ...createdAt, ownerOnly: true },
      belongs_to__user: ref('user', 'owns__saml_account', { readOnly: true }),
      was_generated_by__identity_provider: ref('identity_provider', undefined, { readOnly: true }),
      remote_id: text({ readOnly: true, ownerOnly: true }),
      display_name: text({ readOnly: true, ownerOnly: true }),
    },
    scope: {
      user: (row) => `${row}."belongs_to__user"`,
      // The administrators of the provider's organizations see (and revoke) its accounts.
      organizations: (row) =>
        `(SELECT ipm."organization" FROM "identity_provider_membership" ipm WHERE ipm."is_authorized_by__identity_provider" = ${row}."was_generated_by__identity_provider")`,
    },
    // Fellow members see that a user signs in through SAML (the member list's badge), no more.
    readableThrough: [
      { resource: 'user', on: (row, other) => `${other}."id" = ${row}."belongs_to__user"` },
    ],
  },
};
