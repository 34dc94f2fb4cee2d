import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { memberListPageSize } from '@flotilla/shared/constants/limits';
import { organizationKey } from './organization-queries.js';

export type MemberSort = 'username asc' | 'username desc';

// One page of an organization's members, server-side (seed 002 section 7: $skip and $top, with a
// count), ordered by username, with their membership and role, their teams in this organization
// and whether they sign in with SAML. Paged over users, so the server sorts by username.
export const memberPageQuery = (
  client: FlotillaClient,
  organizationId: number,
  page: number,
  sort: MemberSort,
) => ({
  queryKey: [...organizationKey(organizationId), 'members', page, sort] as const,
  queryFn: async () => {
    const $filter = {
      organization_membership: {
        $any: { $alias: 'm', $expr: { m: { is_member_of__organization: organizationId } } },
      },
    };
    const [rows, count] = await Promise.all([
      client.pine.get({
        resource: 'user',
        options: {
          $select: ['id', 'username'],
          $filter,
          $top: memberListPageSize,
          $skip: page * memberListPageSize,
          $orderby: { username: sort === 'username asc' ? 'asc' : 'desc' },
          $expand: {
            organization_membership: {
              $select: ['id'],
              $filter: { is_member_of__organization: organizationId },
              $expand: { organization_membership_role: { $select: ['name'] } },
            },
            owns__saml_account: { $count: {} },
            team_membership: {
              $select: ['id'],
              $filter: {
                is_member_of__team: {
                  $any: { $alias: 't', $expr: { t: { belongs_to__organization: organizationId } } },
                },
              },
              $expand: { is_member_of__team: { $select: ['id', 'name'] } },
            },
          },
        },
      }),
      client.pine.get({ resource: 'user', options: { $count: { $filter } } }),
    ]);
    return { rows, count };
  },
});

// The organization's pending invitations (administrators read them).
export const invitationListQuery = (client: FlotillaClient, organizationId: number) => ({
  queryKey: [...organizationKey(organizationId), 'invitations'] as const,
  queryFn: () =>
    client.pine.get({
      resource: 'invitee__is_invited_to__organization',
      options: {
        $select: ['id', 'message'],
        $filter: { is_invited_to__organization: organizationId },
        $orderby: { id: 'desc' },
        $expand: {
          invitee: { $select: ['email'] },
          organization_membership_role: { $select: ['name'] },
        },
      },
    }),
});
