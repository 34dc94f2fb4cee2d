import type { ResourceDefinition } from '../model-types.js';
import { id, ref, shortText, text } from './field-kinds.js';
import { alias } from './sql-helpers.js';

// The signed-up user (if any) whose e-mail an invitee row names: they may read their invitations.
const userOfInviteeEmail = (emailSql: string, row: string): string => {
  const u = alias('iu', row);
  return `(SELECT ${u}."id" FROM "user" ${u} WHERE lower(${u}."email") = lower(${emailSql}))`;
};

const userOfInvitee = (inviteeIdSql: string, row: string): string => {
  const i = alias('ie', row);
  return userOfInviteeEmail(
    `(SELECT ${i}."email" FROM "invitee" ${i} WHERE ${i}."id" = ${inviteeIdSql})`,
    row,
  );
};

// E-mail invitations to a fleet or an organization. The SDK posts `invitee` as an e-mail string;
// a hook finds or creates the invitee row and substitutes its id.
export const inviteResources: Record<string, ResourceDefinition> = {
  invitee: {
    fields: { id, email: shortText({ required: true, createOnly: true }) },
    scope: { user: (row) => userOfInviteeEmail(`${row}."email"`, row) },
  },
  invitee__is_invited_to__application: {
    alternateKeys: [['invitee', 'is_invited_to__application']],
    fields: {
      id,
      invitee: ref(
        'invitee',
        [
          'is_invited_to__application',
          'invitee__is_invited_to__application',
          'application_invite',
          'is_of__invitee__is_invited_to__application',
          'is_of__application_invite',
          'includes__invitee__is_invited_to__application',
          'includes__application_invite',
        ],
        { required: true, createOnly: true },
      ),
      is_invited_to__application: ref(
        'application',
        ['invitee__is_invited_to__application', 'application_invite', 'invitee'],
        { required: true, createOnly: true },
      ),
      application_membership_role: ref(
        'application_membership_role',
        ['is_of__invitee__is_invited_to__application', 'is_of__application_invite'],
        { required: true },
      ),
      message: text(),
      is_created_by__user: ref(
        'user',
        ['creates__invitee__is_invited_to__application', 'creates__application_invite'],
        { readOnly: true },
      ),
    },
    synonyms: { application: 'is_invited_to__application' },
    scope: {
      application: (row) => `${row}."is_invited_to__application"`,
      user: (row) => userOfInvitee(`${row}."invitee"`, row),
    },
  },
  invitee__is_invited_to__organization: {
    alternateKeys: [['invitee', 'is_invited_to__organization']],
    fields: {
      id,
      invitee: ref(
        'invitee',
        [
          'is_invited_to__organization',
          'invitee__is_invited_to__organization',
          'organization_invite',
          'is_of__invitee__is_invited_to__organization',
          'is_of__organization_invite',
          'includes__invitee__is_invited_to__organization',
          'includes__organization_invite',
        ],
        { required: true, createOnly: true },
      ),
      is_invited_to__organization: ref(
        'organization',
        ['invitee__is_invited_to__organization', 'organization_invite', 'invitee'],
        { required: true, createOnly: true },
      ),
      organization_membership_role: ref(
        'organization_membership_role',
        ['is_of__invitee__is_invited_to__organization', 'is_of__organization_invite'],
        { required: true },
      ),
      message: text(),
      is_created_by__user: ref(
        'user',
        ['creates__invitee__is_invited_to__organization', 'creates__organization_invite'],
        { readOnly: true },
      ),
    },
    synonyms: { organization: 'is_invited_to__organization' },
    scope: {
      organization: (row) => `${row}."is_invited_to__organization"`,
      user: (row) => userOfInvitee(`${row}."invitee"`, row),
    },
  },
};
