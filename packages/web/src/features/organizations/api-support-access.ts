import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { platformRolesOf } from '@flotilla/shared/permissions/fleet-access';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { useSession } from '../../api/session/useSession.js';
import { organizationKeys } from './query-keys.js';

// The latest support-access grant that reaches an organization: any of its fleets' or their
// devices' (shared/permissions/support-access.ts): the fleets' dates, then the latest device's.
const fetchLatestGrants = async (
  client: FlotillaClient,
  organizationId: number,
): Promise<(string | null)[]> => {
  const fleets = await client.pine.get({
    resource: 'application',
    options: {
      $select: ['id', 'is_accessible_by_support_until__date'],
      $filter: { organization: organizationId },
    },
  });
  if (fleets.length === 0) return [];
  const devices = await client.pine.get({
    resource: 'device',
    options: {
      $select: ['is_accessible_by_support_until__date'],
      $filter: {
        belongs_to__application: { $in: fleets.map((fleet) => fleet.id) },
        is_accessible_by_support_until__date: { $ne: null },
      },
      $orderby: [{ is_accessible_by_support_until__date: 'desc' }],
      $top: 1,
    },
  });
  return [...fleets, ...devices].map((row) => row.is_accessible_by_support_until__date);
};

// Read only for support agents and platform administrators, who see the notice.
// Read for platform staff who are not members of the organization (`member`): nobody else sees
// the notice.
export const useOrganizationSupportGrants = (organizationId: number, member: boolean) => {
  const client = useClient();
  const session = useSession();
  const staff = platformRolesOf(session?.permissions ?? []).length > 0;
  return useQuery({
    queryKey: [...organizationKeys.organization(organizationId), 'support-access'] as const,
    queryFn: () => fetchLatestGrants(client, organizationId),
    enabled: staff && !member,
  });
};
