import type { ResourceDefinition } from '../model-types.js';
import { bool, createdAt, date, id, json, keyValue, ref, shortText, text } from './field-kinds.js';
import { alias, everyone, lookup } from './sql-helpers.js';

// Billing seat role of a member: "administrator" for organization administrators, else the highest
// fleet role the user holds on any fleet of the organization, else "member". Billing meters seats
// with it too.
export const effectiveSeatRole = (row: string): string => {
  const r = alias('osr', row);
  const fa = alias('osfa', row);
  const app = alias('osa', row);
  return `CASE WHEN ${lookup('organization_membership_role', 'name', `${row}."organization_membership_role"`, r)} = 'administrator' THEN 'administrator' ELSE coalesce((SELECT ${fa}."role" FROM "fleet_access" ${fa} JOIN "application" ${app} ON ${app}."id" = ${fa}."application" WHERE ${fa}."user" = ${row}."user" AND ${app}."organization" = ${row}."is_member_of__organization" ORDER BY array_position(ARRAY['administrator','developer','safe-developer','operator','safe-operator','observer'], ${fa}."role") LIMIT 1), 'member') END`;
};

const membershipReverse = [
  'user__is_member_of__organization',
  'organization_membership',
  'includes__user',
  'includes__user__is_member_of__organization',
  'includes__organization_membership',
] as const;

const userMembershipReverse = [
  'user__is_member_of__organization',
  'organization_membership',
  'is_member_of__organization',
  'is_of__user__is_member_of__organization',
  'is_of__organization_membership',
  'includes__user__is_member_of__organization',
  'includes__organization_membership',
] as const;

export const organizationResources: Record<string, ResourceDefinition> = {
  organization: {
    fields: {
      id,
      created_at: createdAt,
      name: shortText({ required: true }),
      // Generated from the name by a hook when not given.
      handle: shortText({ createOnly: true }),
      company_name: shortText(),
      billing_account_code: text({ readOnly: true }),
      has_past_due_invoice_since__date: date({ readOnly: true }),
      is_frozen: bool({ readOnly: true }),
      industry: text(),
      website: text(),
      // Set by PUT /org/v1/organization/:id/logo (features/organizations), never through /v7.
      logo_image: json({ readOnly: true }),
      is_using__billing_version: text({ readOnly: true }),
      is_enforcing_saml_login: bool(),
    },
    scope: { organization: (row) => `${row}."id"` },
    alternateKeys: [['handle']],
  },
  organization_membership_role: {
    fields: { id, name: text({ readOnly: true }) },
    scope: { public: everyone },
    alternateKeys: [['name']],
    readOnly: true,
  },
  organization_membership: {
    alternateKeys: [['user', 'is_member_of__organization']],
    fields: {
      id,
      created_at: createdAt,
      user: ref('user', userMembershipReverse, { required: true, createOnly: true }),
      is_member_of__organization: ref('organization', membershipReverse, {
        required: true,
        createOnly: true,
      }),
      organization_membership_role: ref(
        'organization_membership_role',
        ['is_of__user__is_member_of__organization', 'is_of__organization_membership'],
        { required: true },
      ),
      effective_seat_role: text({ computed: effectiveSeatRole }),
    },
    synonyms: { organization: 'is_member_of__organization', includes__user: 'user' },
    scope: {
      organization: (row) => `${row}."is_member_of__organization"`,
      user: (row) => `${row}."user"`,
    },
  },
  organization_membership_tag: {
    alternateKeys: [['organization_membership', 'tag_key']],
    fields: {
      id,
      organization_membership: ref(
        'organization_membership',
        [
          'user__is_member_of__organization__has__tag_key',
          'organization_membership__has__tag_key',
          'organization_membership_tag',
        ],
        { required: true, createOnly: true },
      ),
      ...keyValue('tag_key'),
    },
    synonyms: { user__is_member_of__organization: 'organization_membership' },
    scope: {
      organization: (row) =>
        lookup(
          'organization_membership',
          'is_member_of__organization',
          `${row}."organization_membership"`,
          alias('om', row),
        ),
    },
  },
};
