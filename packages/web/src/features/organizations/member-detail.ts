import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { organizationKey } from './organization-queries.js';

// One organization membership with the member's teams and direct fleet memberships there.
export const memberDetailQuery = (
  client: FlotillaClient,
  organizationId: number,
  membershipId: number,
) => ({
  queryKey: [...organizationKey(organizationId), 'member', membershipId] as const,
  queryFn: async () =>
    (
      await client.pine.get({
        resource: 'organization_membership',
        options: {
          $select: ['id', 'created_at'],
          $filter: { id: membershipId, is_member_of__organization: organizationId },
          $expand: {
            organization_membership_role: { $select: ['name'] },
            user: {
              $select: ['id', 'username'],
              $expand: {
                owns__saml_account: { $count: {} },
                team_membership: {
                  $select: ['id'],
                  $filter: {
                    is_member_of__team: {
                      $any: {
                        $alias: 't',
                        $expr: { t: { belongs_to__organization: organizationId } },
                      },
                    },
                  },
                  $expand: { is_member_of__team: { $select: ['id', 'name'] } },
                },
                user_application_membership: {
                  $select: ['id'],
                  $filter: {
                    is_member_of__application: {
                      $any: { $alias: 'a', $expr: { a: { organization: organizationId } } },
                    },
                  },
                  $expand: {
                    is_member_of__application: { $select: ['id', 'app_name', 'is_of__class'] },
                    application_membership_role: { $select: ['name'] },
                  },
                },
              },
            },
          },
        },
      })
    )[0] ?? null,
});
