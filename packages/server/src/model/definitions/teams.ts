import type { ResourceDefinition } from '../model-types.js';
import { createdAt, id, ref, shortText, text } from './field-kinds.js';
import { alias, lookup } from './sql-helpers.js';

const organizationOfTeam = (teamIdSql: string, row: string): string =>
  lookup('team', 'belongs_to__organization', teamIdSql, alias('tm', row));

// Teams group organization members; a team's fleet access grants a fleet role to every member.
export const teamResources: Record<string, ResourceDefinition> = {
  team: {
    alternateKeys: [['belongs_to__organization', 'name']],
    fields: {
      id,
      created_at: createdAt,
      belongs_to__organization: ref('organization', 'owns__team', {
        required: true,
        createOnly: true,
      }),
      name: shortText({ required: true }),
      description: text(),
    },
    scope: { organization: (row) => `${row}."belongs_to__organization"` },
  },
  team_membership: {
    alternateKeys: [['user', 'is_member_of__team']],
    fields: {
      id,
      created_at: createdAt,
      // The SDK posts `username` instead; a hook resolves it to this id.
      user: ref('user', ['user__is_member_of__team', 'team_membership', 'is_member_of__team'], {
        required: true,
        createOnly: true,
      }),
      is_member_of__team: ref(
        'team',
        ['user__is_member_of__team', 'team_membership', 'includes__user'],
        {
          required: true,
          createOnly: true,
        },
      ),
    },
    synonyms: { team: 'is_member_of__team', includes__user: 'user' },
    scope: {
      organization: (row) => organizationOfTeam(`${row}."is_member_of__team"`, row),
      user: (row) => `${row}."user"`,
    },
  },
  team_application_access: {
    alternateKeys: [['team', 'grants_access_to__application']],
    fields: {
      id,
      created_at: createdAt,
      team: ref(
        'team',
        [
          'team__grants_access_to__application',
          'team_application_access',
          'grants_access_to__application',
        ],
        { required: true, createOnly: true },
      ),
      grants_access_to__application: ref(
        'application',
        [
          'team__grants_access_to__application',
          'team_application_access',
          'is_accessible_by__team',
        ],
        { required: true, createOnly: true },
      ),
      application_membership_role: ref(
        'application_membership_role',
        ['is_of__team__grants_access_to__application', 'is_of__team_application_access'],
        { required: true },
      ),
    },
    synonyms: { application: 'grants_access_to__application', is_accessible_by__team: 'team' },
    scope: {
      application: (row) => `${row}."grants_access_to__application"`,
      organization: (row) => organizationOfTeam(`${row}."team"`, row),
    },
  },
};
