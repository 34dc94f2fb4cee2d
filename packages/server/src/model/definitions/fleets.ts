import { fleetNameLength } from '@flotilla/shared/constants/limits';
import type { ResourceDefinition } from '../model-types.js';
import {
  bool,
  createdAt,
  date,
  id,
  integer,
  keyValue,
  modifiedAt,
  ref,
  text,
} from './field-kinds.js';
import { alias, everyone, isPublicApplication } from './sql-helpers.js';

// Fleets (v7 "application", also apps and blocks), their types, tags and direct memberships.
export const fleetResources: Record<string, ResourceDefinition> = {
  application: {
    fields: {
      id,
      created_at: createdAt,
      actor: ref('actor', 'is_of__application', { readOnly: true }),
      should_track_latest_release: bool(),
      is_of__class: text({ createOnly: true }),
      organization: ref('organization', ['is_of__application', 'application'], { required: true }),
      app_name: text({ required: true, maxLength: fleetNameLength.max }),
      // Generated as "<org handle>/<lower-cased name>" by a hook when not given.
      slug: text({ createOnly: true }),
      is_for__device_type: ref('device_type', 'is_default_for__application', { required: true }),
      should_be_running__release: ref('release', 'should_be_running_on__application'),
      // Defaults to "microservices" (see 0001-schema.sql).
      application_type: ref('application_type', 'is_of__application'),
      is_host: bool({ readOnly: true }),
      is_archived: bool(),
      uuid: text({ createOnly: true }),
      is_public: bool(),
      is_accessible_by_support_until__date: date(),
      is_discoverable: bool({ readOnly: true }),
      is_stored_at__repository_url: text(),
    },
    navigations: {
      // Users holding a fleet role (organization administrator, direct member or through a team).
      // The SDK filters `is_directly_accessible_by__user/any(dau: 1 eq 1)`, which relies on the
      // caller seeing only their own user row.
      is_directly_accessible_by__user: {
        target: 'user',
        many: true,
        join: (parent, child) => {
          const access = alias('fa', `${parent}${child}`);
          return `EXISTS (SELECT 1 FROM "fleet_access" ${access} WHERE ${access}."application" = ${parent}."id" AND ${access}."user" = ${child}."id")`;
        },
      },
    },
    scope: {
      application: (row) => `${row}."id"`,
      organization: (row) => `${row}."organization"`,
      public: (row) => `${row}."is_public"`,
    },
    alternateKeys: [['slug'], ['uuid'], ['actor']],
  },
  application_type: {
    fields: {
      id,
      name: text({ readOnly: true }),
      supports_web_url: bool({ readOnly: true }),
      supports_multicontainer: bool({ readOnly: true }),
      supports_gateway_mode: bool({ readOnly: true }),
      needs__os_version_range: text({ readOnly: true }),
      requires_payment: bool({ readOnly: true }),
      is_legacy: bool({ readOnly: true }),
      slug: text({ readOnly: true }),
      description: text({ readOnly: true }),
      maximum_device_count: integer({ readOnly: true }),
    },
    scope: { public: everyone },
    alternateKeys: [['slug']],
    readOnly: true,
  },
  application_tag: {
    alternateKeys: [['application', 'tag_key']],
    fields: {
      id,
      application: ref('application', ['application__has__tag_key', 'application_tag'], {
        required: true,
        createOnly: true,
      }),
      ...keyValue('tag_key'),
    },
    scope: {
      application: (row) => `${row}."application"`,
      // Host-OS and supervisor fleets are public and tagged; OS version queries read their tags.
      public: (row) => isPublicApplication(`${row}."application"`, row),
    },
  },
  application_membership_role: {
    fields: {
      id,
      created_at: createdAt,
      modified_at: modifiedAt,
      name: text({ readOnly: true }),
      description: text({ readOnly: true }),
    },
    scope: { public: everyone },
    alternateKeys: [['name']],
    readOnly: true,
  },
  user_application_membership: {
    alternateKeys: [['user', 'is_member_of__application']],
    fields: {
      id,
      // The SDK posts `username` instead; a hook resolves it to this id.
      user: ref(
        'user',
        [
          'user__is_member_of__application',
          'user_application_membership',
          'is_member_of__application',
          'is_of__user__is_member_of__application',
          'is_of__user_application_membership',
          'includes__user__is_member_of__application',
          'includes__user_application_membership',
        ],
        { required: true, createOnly: true },
      ),
      is_member_of__application: ref(
        'application',
        [
          'user__is_member_of__application',
          'user_application_membership',
          'includes__user',
          'includes__user__is_member_of__application',
          'includes__user_application_membership',
        ],
        { required: true, createOnly: true },
      ),
      application_membership_role: ref(
        'application_membership_role',
        ['is_of__user__is_member_of__application', 'is_of__user_application_membership'],
        { required: true },
      ),
    },
    synonyms: { application: 'is_member_of__application', includes__user: 'user' },
    scope: {
      application: (row) => `${row}."is_member_of__application"`,
      user: (row) => `${row}."user"`,
    },
  },
};
