import type { ResourceDefinition } from '../model-types.js';
import { bool, createdAt, date, id, ref, shortText, text } from './field-kinds.js';
import { alias } from './sql-helpers.js';

// Users, their actor identity and their own rows (profile, SSH keys, linked social accounts).
export const userResources: Record<string, ResourceDefinition> = {
  // One actor per user, fleet (application) and device: what API keys and history point at.
  // Rows are created by the column defaults of user/application/device (see 0001-schema.sql).
  actor: {
    fields: { id },
    scope: { actor: (row) => `${row}."id"` },
    readOnly: true,
  },
  // Fellow members of an organization, fleet or team see each other's id and username only.
  user: {
    fields: {
      id,
      created_at: { ...createdAt, ownerOnly: true },
      actor: ref('actor', 'is_of__user', { readOnly: true, ownerOnly: true }),
      username: shortText({ required: true }),
      has_legacy_link_to__organization: ref('organization', 'includes_legacy_link_to__user', {
        readOnly: true,
        ownerOnly: true,
      }),
      // Written true to ask for a new verification mail (features/email-verification).
      has_been_sent_verification_email: bool({ ownerOnly: true }),
      // Not v7: a new address waiting for its verification link (PATCH /user/email), shown to
      // its owner after a reload (Preferences → Account details); null on anyone else's row.
      pending_email: text({ readOnly: true, ownerOnly: true }),
      // Not v7 fields: kept on the user row for the auth endpoints, never served.
      email: text({ hidden: true }),
      password_hash: text({ hidden: true }),
      jwt_secret: text({ hidden: true }),
    },
    navigations: {
      // Mirror of application.is_directly_accessible_by__user (v7 types this as the
      // user__has_direct_access_to__application link; the SDK never looks inside it).
      has_direct_access_to__application: {
        target: 'application',
        many: true,
        join: (parent, child) => {
          const access = alias('fa', `${parent}${child}`);
          return `EXISTS (SELECT 1 FROM "fleet_access" ${access} WHERE ${access}."user" = ${parent}."id" AND ${access}."application" = ${child}."id")`;
        },
      },
    },
    scope: { user: (row) => `${row}."id"`, actor: (row) => `${row}."actor"` },
    readableThrough: [
      { resource: 'organization_membership', on: (row, other) => `${other}."user" = ${row}."id"` },
      {
        resource: 'user_application_membership',
        on: (row, other) => `${other}."user" = ${row}."id"`,
      },
      { resource: 'team_membership', on: (row, other) => `${other}."user" = ${row}."id"` },
    ],
    alternateKeys: [['username'], ['actor']],
  },
  // A read-only view over the user row (see 0001-schema.sql); profile edits go through
  // PATCH /user/profile, not /v7.
  user_profile: {
    fields: {
      id,
      is_of__user: ref('user', 'user_profile', { readOnly: true }),
      email: text({ readOnly: true }),
      has_disabled_newsletter: bool({ readOnly: true }),
      is_verified: bool({ readOnly: true }),
      must_be_verified: bool({ readOnly: true }),
      first_name: text({ readOnly: true }),
      last_name: text({ readOnly: true }),
      account_type: text({ readOnly: true }),
      has_password_set: bool({ readOnly: true }),
      company: text({ readOnly: true }),
      created_at: createdAt,
      username: text({ readOnly: true }),
    },
    scope: { user: (row) => `${row}."is_of__user"` },
    readOnly: true,
  },
  user__has__public_key: {
    fields: {
      id,
      created_at: createdAt,
      user: ref('user', ['user__has__public_key', 'user_public_key'], {
        required: true,
        createOnly: true,
      }),
      public_key: text({ required: true, createOnly: true }),
      title: shortText({ required: true }),
      // Not in v7: the md5 fingerprint the console shows, derived by the write hook
      // (features/ssh-keys/ssh-key-hooks.ts).
      fingerprint: text({ readOnly: true }),
    },
    scope: { user: (row) => `${row}."user"` },
    // A user holds a key once (migration 0016).
    alternateKeys: [['user', 'fingerprint']],
  },
  // Two-factor recovery codes, read-only: the owner sees which codes exist
  // and when each was used, never the codes (a view without their hashes, migration 0020).
  recovery_two_factor: {
    fields: {
      id,
      belongs_to__user: ref('user', 'owns__recovery_two_factor', { readOnly: true }),
      used_timestamp: date({ readOnly: true }),
    },
    scope: { user: (row) => `${row}."belongs_to__user"` },
    readOnly: true,
  },
  // Linked sign-in accounts (GitHub, Google...). Created by the OAuth flow; a user may unlink.
  social_service_account: {
    fields: {
      // Not in v7 (balena serves it keyless) but every Flotilla row has an id.
      id,
      belongs_to__user: ref('user', 'owns__social_service_account', { readOnly: true }),
      provider: text({ readOnly: true }),
      display_name: text({ readOnly: true }),
      remote_id: text({ hidden: true }),
    },
    scope: { user: (row) => `${row}."belongs_to__user"` },
    // One account of each provider per user (migration 0045).
    alternateKeys: [['belongs_to__user', 'provider']],
  },
};
